def f():
    global g
    x = 1
    def h():
        nonlocal x
        del x
