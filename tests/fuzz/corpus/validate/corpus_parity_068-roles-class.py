# parity: a class name ending with __roles__ is rejected (RESTRICTEDPYTHON.md §3.3)
# restricted: reject
# default: reject
class Page__roles__:
    pass
