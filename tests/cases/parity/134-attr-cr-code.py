# parity: cr_code is in INSPECT_ATTRIBUTES (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: reject
def f(c):
    return c.cr_code
