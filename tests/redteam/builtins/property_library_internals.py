# category: builtins
# attack: a property and a descriptor on the program's own class that return library internals (attrgetter over a stored module, a library method as fget)
# profile: basic
# verdict: error
# run-layer: guard
import operator
import random


class P:
    leak = property(operator.attrgetter("_mod._os"))

    def __init__(self):
        self._mod = random


P().leak.system("cat @SECRET_FILE@ > @OUTSIDE@")
