# parity: IfExp and Lambda are allowed (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
f = lambda n: "even" if n % 2 == 0 else "odd"
