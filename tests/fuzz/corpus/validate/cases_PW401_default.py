x: int = 0  # ok in default
match x:  # ok in default
    case 1:
        pass
def f():
    y = 1
    def g():
        nonlocal y  # ok in default
    return g
