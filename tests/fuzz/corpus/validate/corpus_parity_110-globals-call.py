# parity: globals() passes the static policy; default rejects it (RESTRICTEDPYTHON.md §6)
# restricted: accept
# default: reject
g = globals()
