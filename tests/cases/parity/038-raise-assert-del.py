# parity: Raise (with from), Assert, Delete of a name and Pass are allowed (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
x = 1
assert x == 1, "x must be 1"
del x
try:
    raise ValueError("bad") from KeyError("k")
except ValueError:
    pass
