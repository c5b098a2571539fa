# parity: a name starting with _ is rejected (Del) (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
del _x
