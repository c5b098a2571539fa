# parity: only calls are checked: reading the name eval is accepted (RESTRICTEDPYTHON.md §3)
# restricted: accept
# default: ?
e = eval
