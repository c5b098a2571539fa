# parity: gi_running is not in INSPECT_ATTRIBUTES (RestrictedPython's attribute rule, visit_Attribute)
# restricted: accept
# default: accept
g = (x for x in [1])
r = g.gi_running
