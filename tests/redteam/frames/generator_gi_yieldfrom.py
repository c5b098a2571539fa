# category: frames
# attack: gi_yieldfrom to reach a library generator's frame
# profile: basic
import itertools
def g():
    yield from iter([1, 2])
x = g()
next(x)
print(x.gi_yieldfrom, x.gi_frame)
