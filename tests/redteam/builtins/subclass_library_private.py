# category: builtins
# attack: a class of the program deriving from a library class (random.Random), reading the library's private internals through self and cls
# profile: basic
# verdict: error rejected
# run-layer: guard
import random


class R(random.Random):
    def leak(self):
        return type(self)._randbelow_with_getrandbits.__globals__


R(1).leak()["_os"].system("cat @SECRET_FILE@ > @OUTSIDE@")
