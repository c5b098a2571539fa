# parity: an attribute that is exactly _ is accepted (RestrictedPython's attribute rule, visit_Attribute)
# restricted: accept
# default: accept
class C:
    pass


c = C()
c._ = 1
y = c._
