# parity: annotations are ordinary expressions, so their Names are checked (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
def f(a: _T):
    return a
