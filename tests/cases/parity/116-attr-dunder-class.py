# parity: __class__ starts with _ (RestrictedPython's attribute rule, visit_Attribute); the default rules read it as type(), as the guard does
# restricted: reject
# default: accept
k = ().__class__
