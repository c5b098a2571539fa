# parity: lambda parameters are checked too (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
f = lambda _a: 1
