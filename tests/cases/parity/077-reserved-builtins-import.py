# parity: an import alias named builtins is rejected (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
import math as builtins
