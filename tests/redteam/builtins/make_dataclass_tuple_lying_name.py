# category: builtins
# attack: dataclasses.make_dataclass with a (NAME, TYPE) field whose NAME is a str subclass that says it is an identifier: its characters are code that the generated __eq__ would run with the library's builtins
# profile: basic
# run-layer: guard
# verdict: error rejected
# never: INJECTED
import dataclasses


class N(str):
    def isidentifier(self):
        return True


C = dataclasses.make_dataclass("C", [(N("a,print('IN' + 'JECTED')"), int)],
                               init=False, repr=False)
C.a = 1
print(C() == C())
