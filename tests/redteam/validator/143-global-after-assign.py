# attack: assignment before a global declaration (a compile-stage error)
def f():
    x = 1
    global x
