# parity: only calls are checked: reading the name eval is accepted (RestrictedPython's name rule, check_name)
# restricted: accept
# default: ?
e = eval
