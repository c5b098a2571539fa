# parity: AugAssign on an attribute is rejected; default accepts self.n += 1 (SPEC §4) (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: accept
class Counter:
    def __init__(self):
        self.n = 0

    def bump(self):
        self.n += 1
