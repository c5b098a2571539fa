# parity: positional-only parameters are checked (8.3, CVE-2026-55830) (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
def f(_getattr_=None, /):
    return 1
