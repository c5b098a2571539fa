# category: syscalls
# attack: a raw os module (sympy.external.import_module) driven from a sympify string, whose attribute reads the guard never sees: os.write to the result pipe, os.kill of the victim
# profile: data_science basic
# run-layer: guard
import sympy
m = sympy.external.import_module("os")
sympy.sympify("m.write(3, 'R')", locals={"m": m}, evaluate=False)
sympy.sympify("m.kill(@TESTPID@, 9)", locals={"m": m}, evaluate=False)
