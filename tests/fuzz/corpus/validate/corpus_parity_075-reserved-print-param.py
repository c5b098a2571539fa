# parity: a parameter named print is rejected (RESTRICTEDPYTHON.md §3.4)
# restricted: reject
# default: reject
def f(print):
    return print
