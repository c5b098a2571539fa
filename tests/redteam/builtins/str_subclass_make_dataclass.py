# category: builtins
# attack: dataclasses.make_dataclass with a str subclass field name that says it is an identifier and formats as code: the text reached compile in the generated __init__ (the guard now hands make_dataclass an exact str copy of each name: the class gets a field 'x')
# profile: basic
# run-layer: no effect
import dataclasses


class F(str):
    # Says it is an identifier; its fourth formatting (the generated
    # __init__'s body) closes the line and adds one of its own.
    n = 0

    def isidentifier(self):
        return True

    def __format__(self, spec):
        F.n += 1
        if F.n != 4:
            return "x"
        return "x\n print(open('@SECRET_FILE@').read())"


C = dataclasses.make_dataclass("C", [F("x")])
print(C(1))
