def f():
    x = 1
    global x  # error: declared global after assignment
