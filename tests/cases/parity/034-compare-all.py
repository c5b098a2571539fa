# parity: every comparator is allowed, chained too (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
a = 1
b = [1]
r = a == 1 != 2 < 3 <= 4 > 0 >= 0 and a in b and 5 not in b and a is not None and b is b
