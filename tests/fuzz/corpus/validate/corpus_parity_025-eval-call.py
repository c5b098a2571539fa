# parity: a call of the bare name eval (RESTRICTEDPYTHON.md §2)
# restricted: reject
# default: reject
y = eval("1 + 1")
