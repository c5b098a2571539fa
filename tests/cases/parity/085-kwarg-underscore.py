# parity: **kwarg starting with _ is rejected (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
def f(**_kw):
    return 1
