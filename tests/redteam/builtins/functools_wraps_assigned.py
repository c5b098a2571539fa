# category: builtins
# attack: functools.wraps(f, assigned=('__code__', '__defaults__')) to copy a library function's internals onto a program object
# profile: basic
# run-layer: guard
import functools, json
class W:
    pass
w = functools.wraps(json.dumps, assigned=("__code__", "__defaults__"))(W())
print(w.__code__)
