# parity: keyword names in calls are not checked: f(_x=1) is accepted (RestrictedPython's name rule, check_name)
# restricted: accept
# default: accept
def f(**kw):
    return kw


f(_x=1)
