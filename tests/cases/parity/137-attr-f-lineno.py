# parity: f_lineno is not in INSPECT_ATTRIBUTES (RestrictedPython's attribute rule, visit_Attribute)
# restricted: accept
# default: accept
def f(fr):
    return fr.f_lineno
