# parity: match with mapping and class patterns (RestrictedPython's node-type policy)
# restricted: reject
# default: accept
match {"k": 1}:
    case {"k": int(v)}:
        y = v
