# parity: the module in from-import is not name-checked (math._mod is a submodule of an allowed module) (RestrictedPython's name rule, check_name)
# restricted: accept
# default: ?
from math._mod import x
