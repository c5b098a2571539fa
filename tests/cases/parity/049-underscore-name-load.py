# parity: a name starting with _ is rejected (Load) (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
y = _x
