# parity: names listed in global are not checked: global _x is accepted (RestrictedPython's name rule, check_name)
# restricted: accept
# default: accept
def f():
    global _x
