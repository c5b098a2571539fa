# parity: ag_code and ag_await are not in INSPECT_ATTRIBUTES (RestrictedPython's attribute rule, visit_Attribute)
# restricted: accept
# default: ?
def f(ag):
    return ag.ag_code, ag.ag_await
