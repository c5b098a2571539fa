# parity: a name starting with _ is rejected (Del) (RESTRICTEDPYTHON.md §3.2)
# restricted: reject
# default: reject
del _x
