# parity: __repr__ is not in ALLOWED_FUNC_NAMES; default accepts it in a class (RESTRICTEDPYTHON.md §3.2)
# restricted: reject
# default: accept
class C:
    def __repr__(self):
        return "C()"
