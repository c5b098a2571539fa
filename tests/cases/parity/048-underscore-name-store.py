# parity: a name starting with _ is rejected (Store) (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
_x = 1
