# parity: the ExceptHandler name is checked (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
try:
    pass
except Exception as _e:
    pass
