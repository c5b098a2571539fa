# parity: ListComp, SetComp, DictComp and GeneratorExp are allowed (RESTRICTEDPYTHON.md §2)
# restricted: accept
# default: accept
a = [x * x for x in range(5) if x]
b = {x % 3 for x in a}
c = {x: str(x) for x in b}
d = sum(x for x in a)
