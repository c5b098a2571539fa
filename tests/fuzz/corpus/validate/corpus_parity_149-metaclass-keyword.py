# parity: the metaclass keyword is rejected (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: reject
class C(metaclass=type):
    pass
