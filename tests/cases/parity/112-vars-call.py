# parity: vars() passes the static policy; default rejects it (RestrictedPython's safe_builtins)
# restricted: accept
# default: reject
v = vars()
