# attack: reach the inner iterator a generator delegates to
def inner():
    yield 1


def outer():
    yield from inner()


g = outer()
next(g)
print(g.gi_yieldfrom)
