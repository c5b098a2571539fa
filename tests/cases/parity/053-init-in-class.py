# parity: __init__ is in ALLOWED_FUNC_NAMES and col_offset != 0 (RestrictedPython's name rule, check_name)
# restricted: accept
# default: accept
class C:
    def __init__(self):
        self.x = 1
