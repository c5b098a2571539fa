# parity: Import alias.asname is checked (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
import math as _m
