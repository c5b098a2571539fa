# attack: inspect what a coroutine awaits and its code object
def inspect_it(c):
    return c.cr_await, c.cr_code, c.cr_origin


print(inspect_it)
