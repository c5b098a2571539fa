# parity: lambda parameters are checked too (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
f = lambda _a: 1
