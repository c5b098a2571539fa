# parity: a single-underscore method name is rejected even in a class (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
class C:
    def _helper(self):
        return 1
