# parity: class keywords other than metaclass are not checked (and dropped): class C(_m=1) is accepted (RestrictedPython's name rule, check_name)
# restricted: accept
# default: accept
class C(_m=1):
    pass
