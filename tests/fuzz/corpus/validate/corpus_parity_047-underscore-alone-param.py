# parity: exactly _ is allowed as a parameter and lambda parameter (RESTRICTEDPYTHON.md §3.1)
# restricted: accept
# default: accept
f = lambda _: 0


def g(_):
    return _
