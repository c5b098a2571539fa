# parity: a parameter named print is rejected (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
def f(print):
    return print
