# parity: tuple targets in assignment and for loops are allowed (rewritten to guarded unpacking) (RestrictedPython's rewrites)
# restricted: accept
# default: accept
a, (b, c) = 1, (2, 3)
x = y = (4, 5)
for k, v in [(1, 2)]:
    pass
