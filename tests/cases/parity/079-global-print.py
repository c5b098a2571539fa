# parity: names listed in global are not checked (RestrictedPython's name rule, check_name)
# restricted: accept
# default: accept
def f():
    global print
