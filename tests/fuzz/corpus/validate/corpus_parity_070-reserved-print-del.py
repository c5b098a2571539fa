# parity: print is reserved: a Del is rejected (RESTRICTEDPYTHON.md §3.4)
# restricted: reject
# default: reject
del print
