# category: builtins
# attack: a base class with a forged __dataclass_fields__ whose field name is code, then make_dataclass and replace on it
# profile: basic
# run-layer: guard
import abc, dataclasses
f = dataclasses.field()
f.name = "a,self.a.append(getmembers)"
f.type = int
B = abc.ABCMeta("B", (), {"__module__": "inspect",
                          "__dataclass_fields__": {"a": f}})
box = []
try:
    D = dataclasses.make_dataclass("D", [], bases=(B,), init=False, repr=False)
    D.a = box
    D() == D()
finally:
    print(dataclasses.replace(B()), box)
