# parity: a call of the bare name exec (RESTRICTEDPYTHON.md §2)
# restricted: reject
# default: reject
exec("x = 1")
