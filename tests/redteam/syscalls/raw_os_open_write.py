# category: syscalls
# attack: os.open/os.write to a path outside via a gadget
# profile: basic
# run-layer: guard
import abc, dataclasses
box = []
X = abc.ABCMeta("X", (), {"__module__": "posix", "a": box,
    "__annotations__": {"a,self.a.append(open),self.a.append(write)": int}})
Y = dataclasses.dataclass(init=False, repr=False)(X)
Y() == Y()
fd = box[0]("@OUTSIDE@", 0o101)
box[1](fd, b"x")
