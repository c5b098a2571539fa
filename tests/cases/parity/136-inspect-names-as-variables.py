# parity: INSPECT_ATTRIBUTES names may still be used as plain variables (RestrictedPython's attribute rule, visit_Attribute)
# restricted: accept
# default: accept
gi_frame = 1
f_back = gi_frame + 1
tb_frame = [f_back]
