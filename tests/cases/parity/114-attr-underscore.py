# parity: an attribute starting with _ is rejected (RestrictedPython's attribute rule, visit_Attribute); the default rules leave it to the guard, which refuses it on a module at run time
# restricted: reject
# default: accept
import random

x = random._inst
