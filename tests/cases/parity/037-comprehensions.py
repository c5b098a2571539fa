# parity: ListComp, SetComp, DictComp and GeneratorExp are allowed (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
a = [x * x for x in range(5) if x]
b = {x % 3 for x in a}
c = {x: str(x) for x in b}
d = sum(x for x in a)
