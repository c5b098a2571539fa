# parity: exactly _ is allowed as a parameter and lambda parameter (RestrictedPython's name rule, check_name)
# restricted: accept
# default: accept
f = lambda _: 0


def g(_):
    return _
