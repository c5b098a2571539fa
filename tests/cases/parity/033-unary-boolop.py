# parity: UnaryOp and BoolOp are allowed (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
x = not (-1 < +2) or ~3 and True
