# parity: a function name ending with __roles__ is rejected (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
def view__roles__():
    pass
