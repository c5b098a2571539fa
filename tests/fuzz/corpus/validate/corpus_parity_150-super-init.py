# parity: super().__init__ is an attribute starting with _; default accepts it (SPEC §4) (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: accept
class A:
    def __init__(self):
        self.a = 1


class B(A):
    def __init__(self):
        super().__init__()
