# category: builtins
# attack: the Enum functional API (Enum, IntEnum, Flag; names as a string, a list, pairs and a mapping; module and qualname) with names that are str subclasses lying about their characters, so that enum's checks of _sunder_ and __dunder__ names and anything formatting them would meet code
# profile: basic
# verdict: ok error rejected
# never: INJECTED
import enum


class N(str):
    def isidentifier(self):
        return True

    def __len__(self):
        return 1

    def __getitem__(self, i):
        return "a"

    def __format__(self, spec):
        return "a,print('IN' + 'JECTED')"

    def replace(self, *args):
        return self

    def split(self, *args):
        return [self]


code = N("a,print('IN' + 'JECTED')")
dunder = N("__init_subclass__")
for kind in (enum.Enum, enum.IntEnum, enum.Flag):
    for names in (code, [code, "b"], [(code, 1), (dunder, 2)],
                  {code: 1, dunder: 2}):
        try:
            E = kind("E", names, module=N("m"), qualname=N("q"))
            print(kind.__name__, sorted(m.name for m in E))
        except (TypeError, ValueError) as e:
            print(kind.__name__, type(e).__name__)
