def f(_getattr_=None, /):  # error: positional-only too
    pass
g = lambda _x: 1  # error
def h(*_a, **_k):  # error x2
    pass
def ok(a, *b, c=1, **d):  # ok
    pass
