# category: builtins
# attack: typing.NamedTuple, functional (a list of pairs, keyword arguments) and class forms, with field and type names that are str subclasses lying about being identifiers: the fields reach collections.namedtuple, which builds source from them
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
        return "".join(self)


code = N("a=print('IN' + 'JECTED')")
for make in (lambda: typing.NamedTuple("P", [(code, int)]),
             lambda: typing.NamedTuple(code, [("x", int)]),
             lambda: typing.NamedTuple("P", **{code: int})):
    try:
        P = make()
        print("made", P(1))
    except (TypeError, ValueError) as e:
        print(type(e).__name__)


class Q(typing.NamedTuple):
    x: N("int")


print(Q(code))
