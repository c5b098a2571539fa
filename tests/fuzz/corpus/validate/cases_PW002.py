def f(a, a):  # error: duplicate parameter
    return a
