# parity: BinOp with @ is allowed (7.1) (RESTRICTEDPYTHON.md §2)
# restricted: accept
# default: accept
a = [[1]]
b = a @ a if False else a
