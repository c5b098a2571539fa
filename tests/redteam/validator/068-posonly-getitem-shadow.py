# attack: positional-only default replacing the _getitem_ hook
def f(_getitem_=lambda o, k: o[k], /):
    return [1, 2][0]


print(f())
