# parity: gi_running is not in INSPECT_ATTRIBUTES (RESTRICTEDPYTHON.md §4)
# restricted: accept
# default: accept
g = (x for x in [1])
r = g.gi_running
