# parity: AugAssign on a plain name is allowed (RESTRICTEDPYTHON.md §4,§5)
# restricted: accept
# default: accept
n = 1
n += 1
