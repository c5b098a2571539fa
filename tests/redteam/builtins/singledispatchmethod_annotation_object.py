# category: builtins
# attack: functools.singledispatchmethod's register() handed an object of the program's whose __annotations__ and __globals__ are properties: typing.get_type_hints would evaluate the string annotation in an empty namespace, that is with the interpreter's real builtins
# profile: basic
# run-layer: guard
# verdict: error rejected
# never: INJECTED
import functools


class Fake:
    @property
    def __annotations__(self):
        return {"x": "print('IN' + 'JECTED') or int"}

    @property
    def __globals__(self):
        return {}

    def __call__(self, *args):
        return "fake"


class C:
    @functools.singledispatchmethod
    def m(self, x):
        return "base"


C.m.register(Fake())
print("registered")
