# parity: a call of the bare name eval (RestrictedPython's node-type policy)
# restricted: reject
# default: reject
y = eval("1 + 1")
