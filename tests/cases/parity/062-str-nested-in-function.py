# parity: __str__ is not excepted even when indented (RestrictedPython's name rule, check_name)
# restricted: reject
# default: ?
def make():
    def __str__(self):
        return "x"
    return 1
