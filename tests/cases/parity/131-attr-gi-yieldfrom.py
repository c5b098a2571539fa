# parity: gi_yieldfrom is in INSPECT_ATTRIBUTES (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: reject
g = (x for x in [1])
y = g.gi_yieldfrom
