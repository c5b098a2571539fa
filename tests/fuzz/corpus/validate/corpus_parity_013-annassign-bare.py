# parity: a bare annotation is an AnnAssign too (RESTRICTEDPYTHON.md §2)
# restricted: reject
# default: accept
x: int
