# parity: class keywords other than metaclass are not checked (and dropped): class C(_m=1) is accepted (RESTRICTEDPYTHON.md §3)
# restricted: accept
# default: accept
class C(_m=1):
    pass
