# parity: a function name ending with __roles__ is rejected (RESTRICTEDPYTHON.md §3.3)
# restricted: reject
# default: reject
def view__roles__():
    pass
