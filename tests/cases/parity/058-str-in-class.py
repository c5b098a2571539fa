# parity: __str__ is not in ALLOWED_FUNC_NAMES; default accepts dunder methods in a class (see the default set in doc/pyward-rules.5) (RestrictedPython's name rule, check_name)
# restricted: reject
# default: accept
class C:
    def __str__(self):
        return "C"
