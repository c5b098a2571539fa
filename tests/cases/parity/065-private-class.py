# parity: a ClassDef name starting with _ is rejected (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
class _Hidden:
    pass
