# parity: any * import is rejected (4.0b4), even from an allowed module (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
from math import *
