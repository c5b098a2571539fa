# parity: NamedExpr with an attribute target (a SyntaxError on 3.11) (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: reject
(a.b := 1)
