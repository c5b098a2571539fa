# parity: __class__ starts with _ (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: reject
k = ().__class__
