# parity: __import__ starts with _ (RESTRICTEDPYTHON.md §3.2)
# restricted: reject
# default: reject
m = __import__("math")
