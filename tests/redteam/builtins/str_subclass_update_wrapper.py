# category: builtins
# attack: functools.update_wrapper with a str subclass name that compares equal to '__doc__' for the guard, then copies __code__ from a library function onto the program's function
# profile: basic
# run-layer: guard
import functools, json


class N(str):
    def __eq__(self, other):
        return True

    def __hash__(self):
        return hash("__doc__")


def f():
    pass


functools.update_wrapper(f, json.dumps, assigned=(N("__code__"),), updated=())
print(f.__code__)
