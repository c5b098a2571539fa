# parity: IfExp and Lambda are allowed (RESTRICTEDPYTHON.md §2)
# restricted: accept
# default: accept
f = lambda n: "even" if n % 2 == 0 else "odd"
