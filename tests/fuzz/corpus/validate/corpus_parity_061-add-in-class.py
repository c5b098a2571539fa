# parity: __add__ is not in ALLOWED_FUNC_NAMES; default accepts an operator dunder in a class (RESTRICTEDPYTHON.md §3.2)
# restricted: reject
# default: accept
class V:
    def __add__(self, other):
        return self
