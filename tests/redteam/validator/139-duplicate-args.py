# attack: duplicate parameter names (a compile-stage error)
def f(a, a):
    return a
