# parity: __init__ at col_offset 0 is not excepted (and is not in a class) (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
def __init__(self):
    pass
