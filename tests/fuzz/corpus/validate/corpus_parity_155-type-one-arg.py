# parity: type(x) with one argument is an ordinary call (RESTRICTEDPYTHON.md §6)
# restricted: accept
# default: accept
t = type(1)
