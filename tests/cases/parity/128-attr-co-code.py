# parity: co_code is in INSPECT_ATTRIBUTES (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: reject
def f(code):
    return code.co_code
