# parity: __str__ is not in ALLOWED_FUNC_NAMES; default accepts dunder methods in a class (SPEC §4) (RESTRICTEDPYTHON.md §3.2)
# restricted: reject
# default: accept
class C:
    def __str__(self):
        return "C"
