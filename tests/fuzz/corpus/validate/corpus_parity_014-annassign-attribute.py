# parity: an annotated attribute assignment is an AnnAssign (RESTRICTEDPYTHON.md §2)
# restricted: reject
# default: accept
class C:
    def __init__(self):
        self.x: int = 0
