# category: imports
# attack: sympy.lambdify prints a Symbol's name into the source it generates and executes with the real builtins (and raw modules)
# profile: data_science basic
# run-layer: guard
import sympy
x = sympy.Symbol("x")
evil = sympy.Symbol("builtins.open('@SECRET_FILE@').read()")
f = sympy.lambdify([x], evil + x, modules="math")
print(f(1))
