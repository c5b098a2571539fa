# category: builtins
# attack: dataclasses.Field.name replaced by a property: the name dataclasses sets is dropped and the one it reads back to generate __eq__ is code
# profile: basic
# run-layer: guard
# verdict: error rejected
# never: INJECTED
import dataclasses


def get(self):
    return "a,print('IN' + 'JECTED')"


def put(self, value):
    pass


dataclasses.Field.name = property(get, put)


@dataclasses.dataclass(init=False, repr=False)
class X:
    a: int = 1


print(X() == X())
