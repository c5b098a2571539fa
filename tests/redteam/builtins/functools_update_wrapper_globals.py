# category: builtins
# attack: functools.update_wrapper(updated=('__globals__',)) copies a library function's globals (the real builtins) into a dict of the program's
# profile: basic
# run-layer: guard
import abc, functools, json
box = {}
W = abc.ABCMeta("W", (), {"__globals__": box})
functools.update_wrapper(W(), json.dumps, assigned=(), updated=("__globals__",))
b = box["__builtins__"]
print(b["open"]("@SECRET_FILE@").read())
