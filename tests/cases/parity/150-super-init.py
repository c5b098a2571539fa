# parity: super().__init__ is an attribute starting with _; default accepts it (see the default set in doc/pyward-rules.5) (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: accept
class A:
    def __init__(self):
        self.a = 1


class B(A):
    def __init__(self):
        super().__init__()
