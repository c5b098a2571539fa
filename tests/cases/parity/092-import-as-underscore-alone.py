# parity: an alias of exactly _ passes the name rule (RestrictedPython's name rule, check_name)
# restricted: accept
# default: accept
import math as _
