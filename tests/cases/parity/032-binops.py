# parity: every BinOp operator is allowed (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
x = 7
y = (x + 1 - 2 * 3 / 4 // 5 % 6 ** 2) << 1 >> 1 & 3 | 4 ^ 5
