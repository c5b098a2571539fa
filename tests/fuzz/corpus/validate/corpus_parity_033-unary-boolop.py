# parity: UnaryOp and BoolOp are allowed (RESTRICTEDPYTHON.md §2)
# restricted: accept
# default: accept
x = not (-1 < +2) or ~3 and True
