# parity: an attribute starting with _ is rejected (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: reject
import random

x = random._inst
