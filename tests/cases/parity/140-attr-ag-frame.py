# parity: ag_frame is not in INSPECT_ATTRIBUTES (the async-generator gap) (RestrictedPython's attribute rule, visit_Attribute)
# restricted: accept
# default: ?
def f(ag):
    return ag.ag_frame
