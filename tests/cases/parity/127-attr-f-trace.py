# parity: f_trace is in INSPECT_ATTRIBUTES (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: reject
def f(fr):
    fr.f_trace = None
