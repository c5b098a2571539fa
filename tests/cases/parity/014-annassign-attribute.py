# parity: an annotated attribute assignment is an AnnAssign (RestrictedPython's node-type policy)
# restricted: reject
# default: accept
class C:
    def __init__(self):
        self.x: int = 0
