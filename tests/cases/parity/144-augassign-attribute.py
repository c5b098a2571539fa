# parity: AugAssign on an attribute is rejected; default accepts self.n += 1 (see the default set in doc/pyward-rules.5) (RestrictedPython's attribute rule, visit_Attribute)
# restricted: reject
# default: accept
class Counter:
    def __init__(self):
        self.n = 0

    def bump(self):
        self.n += 1
