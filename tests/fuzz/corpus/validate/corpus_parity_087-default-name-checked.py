# parity: defaults are ordinary expressions, so their Names are checked (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
def f(a=_default):
    return a
