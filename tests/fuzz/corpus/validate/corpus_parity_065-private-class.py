# parity: a ClassDef name starting with _ is rejected (RESTRICTEDPYTHON.md §3.2)
# restricted: reject
# default: reject
class _Hidden:
    pass
