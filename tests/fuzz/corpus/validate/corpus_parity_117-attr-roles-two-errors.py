# parity: obj.__roles__ both starts with _ and ends with __roles__ (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: reject
class C:
    pass


r = C.__roles__
