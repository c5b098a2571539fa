# parity: gi_code is in INSPECT_ATTRIBUTES (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: reject
g = (x for x in [1])
c = g.gi_code
