# parity: a class name ending with __roles__ is rejected (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
class Page__roles__:
    pass
