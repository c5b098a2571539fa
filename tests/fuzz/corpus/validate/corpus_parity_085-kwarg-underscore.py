# parity: **kwarg starting with _ is rejected (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
def f(**_kw):
    return 1
