# parity: gi_code is in INSPECT_ATTRIBUTES (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: reject
g = (x for x in [1])
c = g.gi_code
