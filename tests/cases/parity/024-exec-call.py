# parity: a call of the bare name exec (RestrictedPython's node-type policy)
# restricted: reject
# default: reject
exec("x = 1")
