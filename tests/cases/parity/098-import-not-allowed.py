# parity: os is on no profile's allow-list (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
import os
