# parity: __init__ is in ALLOWED_FUNC_NAMES and col_offset != 0 (RESTRICTEDPYTHON.md §3.2)
# restricted: accept
# default: accept
class C:
    def __init__(self):
        self.x = 1
