# parity: breakpoint is reserved (4.0b6) (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
breakpoint = None
