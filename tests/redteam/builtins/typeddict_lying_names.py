# category: builtins
# attack: typing.TypedDict, functional (a dict of names, keyword arguments) and class forms, with key and type names that are str subclasses formatting as code: nothing built from them may run
# profile: basic
# verdict: ok error rejected
# never: INJECTED
import typing


class N(str):
    def isidentifier(self):
        return True

    def __str__(self):
        return self

    def __format__(self, spec):
        return "a=print('IN' + 'JECTED')"


code = N("a=print('IN' + 'JECTED')")
for make in (lambda: typing.TypedDict("TD", {code: int}),
             lambda: typing.TypedDict(code, {"x": int}),
             lambda: typing.TypedDict("TD", **{code: int})):
    try:
        TD = make()
        print("made", TD(x=1))
    except (TypeError, ValueError, AttributeError) as e:
        print(type(e).__name__)


class T(typing.TypedDict, total=False):
    x: N("int")


print(T(x=code))
