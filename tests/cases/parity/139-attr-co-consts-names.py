# parity: co_consts and co_names are not in INSPECT_ATTRIBUTES (RestrictedPython's attribute rule, visit_Attribute)
# restricted: accept
# default: ?
def f(code):
    return code.co_consts, code.co_names
