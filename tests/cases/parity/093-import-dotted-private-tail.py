# parity: the whole dotted string is checked: math._x does not start with _ (and math's submodules are on the allow-list) (RestrictedPython's name rule, check_name)
# restricted: accept
# default: ?
import math._x
