# parity: printed is reserved: a Store is rejected (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
printed = ""
