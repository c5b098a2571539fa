# parity: tb_frame is in INSPECT_ATTRIBUTES (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: reject
def f(tb):
    return tb.tb_frame
