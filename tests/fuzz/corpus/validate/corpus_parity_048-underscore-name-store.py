# parity: a name starting with _ is rejected (Store) (RESTRICTEDPYTHON.md §3.2)
# restricted: reject
# default: reject
_x = 1
