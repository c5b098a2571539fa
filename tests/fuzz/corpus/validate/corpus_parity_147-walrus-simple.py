# parity: NamedExpr with a Name target is allowed (5.1) (RESTRICTEDPYTHON.md §4)
# restricted: accept
# default: accept
if (n := len("abc")) > 2:
    m = n
