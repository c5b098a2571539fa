# parity: an attribute ending in __roles__ is rejected (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: reject
class C:
    pass


C.view__roles__ = ()
