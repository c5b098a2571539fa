# parity: __repr__ is not in ALLOWED_FUNC_NAMES; default accepts it in a class (RestrictedPython's name rule, check_name)
# restricted: reject
# default: accept
class C:
    def __repr__(self):
        return "C()"
