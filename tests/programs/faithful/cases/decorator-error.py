def deco(fn):
    return fn.missing


@deco
def f():
    pass
