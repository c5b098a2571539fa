# parity: BinOp with @ is allowed (7.1) (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
a = [[1]]
b = a @ a if False else a
