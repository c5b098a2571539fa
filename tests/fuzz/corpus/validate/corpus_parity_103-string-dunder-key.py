# parity: string constants and subscript keys are not checked: d["__class__"] is accepted (RESTRICTEDPYTHON.md §3)
# restricted: accept
# default: accept
d = {"__class__": 1}
v = d["__class__"]
