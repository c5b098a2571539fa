# parity: builtins is reserved (4.0b6) (RESTRICTEDPYTHON.md §3.4)
# restricted: reject
# default: reject
builtins = None
