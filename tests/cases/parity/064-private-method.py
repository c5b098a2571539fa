# parity: a single-underscore method name is rejected even in a class (RestrictedPython's name rule, check_name); the default rules allow a private method of the program's own class
# restricted: reject
# default: accept
class C:
    def _helper(self):
        return 1
