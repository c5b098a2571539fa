# parity: gi_yieldfrom is in INSPECT_ATTRIBUTES (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: reject
g = (x for x in [1])
y = g.gi_yieldfrom
