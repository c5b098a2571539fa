# parity: obj.__roles__ both starts with _ and ends with __roles__ (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: reject
class C:
    pass


r = C.__roles__
