# parity: cr_origin is in INSPECT_ATTRIBUTES (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: reject
def f(c):
    return c.cr_origin
