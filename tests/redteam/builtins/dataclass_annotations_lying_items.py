# category: builtins
# attack: a class whose __annotations__ is a dict subclass: its keys are plain names, its items() (what dataclasses reads) give a field name that is code, run by the generated __eq__
# profile: basic
# run-layer: guard
# verdict: error rejected
# never: INJECTED
import abc, dataclasses


class D(dict):
    def items(self):
        return [("a,print('IN' + 'JECTED')", int)]


X = abc.ABCMeta("X", (), {"a": 1, "__annotations__": D(a=int)})
Y = dataclasses.dataclass(init=False, repr=False)(X)
print(Y() == Y())
