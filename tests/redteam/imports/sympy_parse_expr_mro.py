# category: imports
# attack: sympy.parsing parse_expr with mro() and __defaults__ (names a string eval must not use) to reach library internals
# profile: data_science
# run-layer: guard
import sympy
print(sympy.parse_expr("Integer.mro()[-1]", evaluate=False))
print(sympy.parse_expr("Integer.__new__.__defaults__", evaluate=False))
