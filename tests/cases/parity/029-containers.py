# parity: List, Tuple, Set, Dict and Starred are allowed (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
a = [1, 2]
b = (*a, 3)
c = {1, *a}
d = {"k": 1, **{"j": 2}}
