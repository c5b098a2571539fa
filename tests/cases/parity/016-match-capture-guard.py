# parity: match with a capture pattern and a guard (RestrictedPython's node-type policy)
# restricted: reject
# default: accept
match (1, 2):
    case (a, b) if a < b:
        y = a + b
