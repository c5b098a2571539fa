# parity: NamedExpr with an attribute target (a SyntaxError on 3.11) (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: reject
(a.b := 1)
