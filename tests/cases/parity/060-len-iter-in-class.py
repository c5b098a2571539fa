# parity: __len__ and __iter__ are not in ALLOWED_FUNC_NAMES; default accepts them in a class (RestrictedPython's name rule, check_name)
# restricted: reject
# default: accept
class Bag:
    def __init__(self):
        self.items = []

    def __len__(self):
        return len(self.items)

    def __iter__(self):
        return iter(self.items)
