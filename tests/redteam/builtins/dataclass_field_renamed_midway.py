# category: builtins
# attack: a real dataclass field in a base class's forged __dataclass_fields__, renamed to code by the program while dataclasses processes the subclass (its __dataclass_params__ runs program code after the fields are collected), before it generates __eq__ from the name
# profile: basic
# run-layer: guard
# verdict: error rejected
# never: INJECTED
import abc, dataclasses

Q = dataclasses.make_dataclass("Q", [("a", int)])
f = dataclasses.fields(Q)[0]


class Params:
    @property
    def frozen(self):
        f.name = "a,print('IN' + 'JECTED')"
        return False


B = abc.ABCMeta("B", (), {"__dataclass_fields__": {"a": f},
                          "__dataclass_params__": Params()})
D = dataclasses.make_dataclass("D", [], bases=(B,), init=False, repr=False)
D.a = 1
print(D() == D())
