# category: syscalls
# attack: os-level socket() via a gadget when socket is not allowed
# profile: basic
# run-layer: guard
import abc, dataclasses
box = []
X = abc.ABCMeta("X", (), {"__module__": "_socket", "a": box,
    "__annotations__": {"a,self.a.append(socket)": int}})
Y = dataclasses.dataclass(init=False, repr=False)(X)
Y() == Y()
s = box[0]()
s.connect(("127.0.0.1", @PORT@))
