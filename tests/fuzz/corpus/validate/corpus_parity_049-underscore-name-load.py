# parity: a name starting with _ is rejected (Load) (RESTRICTEDPYTHON.md §3.2)
# restricted: reject
# default: reject
y = _x
