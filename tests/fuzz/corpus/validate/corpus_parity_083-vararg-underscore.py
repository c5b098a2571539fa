# parity: *vararg starting with _ is rejected (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
def f(*_args):
    return 1
