# parity: ImportFrom alias.name is checked (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
from random import _inst
