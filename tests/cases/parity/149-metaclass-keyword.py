# parity: the metaclass keyword is rejected (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: reject
class C(metaclass=type):
    pass
