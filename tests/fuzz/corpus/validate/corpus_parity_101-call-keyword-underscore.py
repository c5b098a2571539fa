# parity: keyword names in calls are not checked: f(_x=1) is accepted (RESTRICTEDPYTHON.md §3)
# restricted: accept
# default: accept
def f(**kw):
    return kw


f(_x=1)
