# parity: a name ending with __roles__ is rejected (RESTRICTEDPYTHON.md §3.3)
# restricted: reject
# default: reject
index__roles__ = None
