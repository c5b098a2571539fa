# parity: import _a.b starts with _ (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
import _a.b
