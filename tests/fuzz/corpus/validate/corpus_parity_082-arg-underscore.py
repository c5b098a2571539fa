# parity: an ordinary parameter starting with _ is rejected (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
def f(_a):
    return 1
