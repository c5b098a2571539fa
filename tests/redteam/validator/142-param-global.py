# attack: a parameter that is also declared global (a compile-stage error)
def f(a):
    global a
    return a
