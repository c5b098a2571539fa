# attack: positional-only parameter on a lambda shadowing _getiter_
run = lambda _getiter_=iter, /: [x for x in [1, 2]]
print(run())
