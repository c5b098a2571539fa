# parity: a dunder name such as __builtins__ starts with _ (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
b = __builtins__
