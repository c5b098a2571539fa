# attack: str.format traversal to a function's globals, with the globals also read directly
def f():
    pass


print("{0.__globals__}".format(f), f.__globals__)
