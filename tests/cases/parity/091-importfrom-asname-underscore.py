# parity: ImportFrom alias.asname is checked (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
from math import pi as _pi
