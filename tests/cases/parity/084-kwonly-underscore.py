# parity: a keyword-only parameter starting with _ is rejected (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
def f(*, _k=1):
    return 1
