# parity: print is reserved: a Del is rejected (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
del print
