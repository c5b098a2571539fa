# parity: exactly _ is allowed as a name (RestrictedPython's name rule, check_name)
# restricted: accept
# default: accept
_ = 5
for _ in range(3):
    pass
