# parity: .__init__ on anything but super() is an attribute starting with _ (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: ?
class A:
    def __init__(self):
        self.a = 1


a = A()
a.__init__()
