# parity: an attribute ending in __roles__ is rejected (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: reject
class C:
    pass


C.view__roles__ = ()
