# parity: AugAssign on a subscript is rejected; default accepts d[k] += 1 (SPEC §4) (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: accept
d = {"a": 0}
d["a"] += 1
