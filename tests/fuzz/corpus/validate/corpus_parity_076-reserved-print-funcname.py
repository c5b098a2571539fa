# parity: a function named print is rejected (RESTRICTEDPYTHON.md §3.4)
# restricted: reject
# default: reject
def print():
    pass
