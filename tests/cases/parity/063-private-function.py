# parity: a FunctionDef name starting with _ is rejected (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
def _helper():
    return 1
