# parity: a bare annotation is an AnnAssign too (RestrictedPython's node-type policy)
# restricted: reject
# default: accept
x: int
