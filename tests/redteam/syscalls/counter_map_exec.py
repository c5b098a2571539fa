# category: syscalls
# attack: exec called from C (map inside Counter) while a library frame (Counter.update) is innermost: the audit hook took it for library code; exec comes from a sympify namespace
# profile: data_science basic
# run-layer: guard
import collections
import sympy
ns = {}
b = sympy.sympify("exec", locals=ns)
collections.Counter(map(b, ["import posix; posix.write(3, b'Rforged')"]))
