# parity: NamedExpr with a Name target is allowed (5.1) (RestrictedPython's attribute rule, visit_Attribute)
# restricted: accept
# default: accept
if (n := len("abc")) > 2:
    m = n
