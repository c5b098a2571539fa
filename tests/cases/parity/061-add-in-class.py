# parity: __add__ is not in ALLOWED_FUNC_NAMES; default accepts an operator dunder in a class (RestrictedPython's name rule, check_name)
# restricted: reject
# default: accept
class V:
    def __add__(self, other):
        return self
