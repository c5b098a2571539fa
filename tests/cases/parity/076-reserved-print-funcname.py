# parity: a function named print is rejected (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
def print():
    pass
