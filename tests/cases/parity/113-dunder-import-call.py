# parity: __import__ starts with _ (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
m = __import__("math")
