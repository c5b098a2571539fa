# parity: a keyword-only parameter starting with _ is rejected (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
def f(*, _k=1):
    return 1
