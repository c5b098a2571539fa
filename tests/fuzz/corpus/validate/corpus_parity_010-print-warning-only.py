# parity: printing without reading printed is only a warning (RESTRICTEDPYTHON.md §1)
# restricted: accept
# default: accept
print("hello")
