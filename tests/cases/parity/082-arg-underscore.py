# parity: an ordinary parameter starting with _ is rejected (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
def f(_a):
    return 1
