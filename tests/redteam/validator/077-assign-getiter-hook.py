# attack: rebind the _getiter_ guard
_getiter_ = iter
for x in [1]:
    print(x)
