# parity: breakpoint is reserved (4.0b6) (RESTRICTEDPYTHON.md §3.4)
# restricted: reject
# default: reject
breakpoint = None
