# category: network
# attack: raw socket module from a dataclass codegen gadget
# profile: basic
# run-layer: guard
import abc, dataclasses
box = []
X = abc.ABCMeta("X", (), {"__module__": "socket", "a": box,
    "__annotations__": {"a,self.a.append(create_connection)": int}})
Y = dataclasses.dataclass(init=False, repr=False)(X)
Y() == Y()
box[0](("127.0.0.1", @PORT@))
