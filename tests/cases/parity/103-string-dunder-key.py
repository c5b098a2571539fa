# parity: string constants and subscript keys are not checked: d["__class__"] is accepted (RestrictedPython's name rule, check_name)
# restricted: accept
# default: accept
d = {"__class__": 1}
v = d["__class__"]
