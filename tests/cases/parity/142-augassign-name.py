# parity: AugAssign on a plain name is allowed (RestrictedPython's attribute rule, visit_Attribute and rewrites)
# restricted: accept
# default: accept
n = 1
n += 1
