# parity: gi_frame is in INSPECT_ATTRIBUTES (CVE-2023-37271) (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: reject
g = (x for x in [1])
fr = g.gi_frame
