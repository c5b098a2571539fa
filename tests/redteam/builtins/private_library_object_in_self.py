# category: builtins
# attack: a library module and a library object stored in self._x, then their private attributes read through the program's own object
# profile: basic
# verdict: error
# run-layer: guard
import random


class Box:
    def __init__(self):
        self._mod = random
        self._rng = random.Random(1)

    def leak(self):
        print(self._rng._randbelow)
        return self._mod._os


Box().leak().system("cat @SECRET_FILE@ > @OUTSIDE@")
