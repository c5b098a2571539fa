# parity: breakpoint is reserved: even a Load in a call is rejected (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
breakpoint()
