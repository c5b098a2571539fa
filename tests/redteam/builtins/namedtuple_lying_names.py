# category: builtins
# attack: collections.namedtuple with type and field names that are str subclasses lying about being identifiers, formatting as code and turning into themselves under str(), in the list, string and rename forms: namedtuple builds its __new__ from their text
# profile: basic
# verdict: ok error rejected
# never: INJECTED
import collections


class N(str):
    def isidentifier(self):
        return True

    def __str__(self):
        return self

    def __format__(self, spec):
        return "".join(self)

    def replace(self, *args):
        return self

    def split(self, *args):
        return [self]


code = N("a=print('IN' + 'JECTED')")
for args, kw in (((code, ["x"]), {}), (("P", [code]), {}),
                 (("P", code), {}), (("P", [code, "y"]), {"rename": True})):
    try:
        P = collections.namedtuple(*args, **kw)
        print("made", P)
    except (TypeError, ValueError) as e:
        print(type(e).__name__)
