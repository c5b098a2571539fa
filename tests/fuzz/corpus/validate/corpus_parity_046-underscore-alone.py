# parity: exactly _ is allowed as a name (RESTRICTEDPYTHON.md §3.1)
# restricted: accept
# default: accept
_ = 5
for _ in range(3):
    pass
