# parity: AugAssign on a slice is a Subscript target too (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: accept
a = [1, 2, 3]
a[0:1] += [9]
