# parity: AugAssign on a subscript is rejected; default accepts d[k] += 1 (see the default set in doc/pyward-rules.5) (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: accept
d = {"a": 0}
d["a"] += 1
