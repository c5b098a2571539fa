# parity: Subscript with Slice and extended slices are allowed (RestrictedPython's node-type policy and rewrites)
# restricted: accept
# default: accept
a = list(range(10))
b = a[1:8:2]
c = a[::-1]
d = {(1, 2): 3}[1, 2]
