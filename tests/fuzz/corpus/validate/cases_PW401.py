x: int = 0  # error
match x:  # error (one for the whole statement)
    case 1:
        pass
def f():
    y = 1
    def g():
        nonlocal y  # error
    return g
async def h():  # error (one for the whole function)
    await z
