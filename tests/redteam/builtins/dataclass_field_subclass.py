# category: builtins
# attack: a subclass of dataclasses.Field as a field's default, whose name property answers code when dataclasses reads it to generate __eq__
# profile: basic
# run-layer: guard
# verdict: error rejected
# never: INJECTED
import dataclasses


class F(dataclasses.Field):
    @property
    def name(self):
        return "a,print('IN' + 'JECTED')"

    @name.setter
    def name(self, value):
        pass


M = dataclasses.MISSING


@dataclasses.dataclass(init=False, repr=False)
class X:
    a: int = F(1, M, True, True, None, True, None, False)


X.a = 1
print(X() == X())
