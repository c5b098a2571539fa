# parity: an ExceptHandler named printed is rejected (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
try:
    pass
except Exception as printed:
    pass
