# parity: a name ending with __roles__ is rejected (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
index__roles__ = None
