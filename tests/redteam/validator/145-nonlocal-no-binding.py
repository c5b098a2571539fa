# attack: nonlocal without an enclosing binding (a compile-stage error)
def f():
    nonlocal missing
    missing = 1
