# parity: a computed attribute name is not seen statically (RESTRICTEDPYTHON.md §10)
# restricted: accept
# default: accept
v = getattr(1, "__cl" + "ass__")
