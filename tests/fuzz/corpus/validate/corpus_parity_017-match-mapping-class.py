# parity: match with mapping and class patterns (RESTRICTEDPYTHON.md §2)
# restricted: reject
# default: accept
match {"k": 1}:
    case {"k": int(v)}:
        y = v
