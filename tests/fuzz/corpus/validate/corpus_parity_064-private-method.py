# parity: a single-underscore method name is rejected even in a class (RESTRICTEDPYTHON.md §3.2)
# restricted: reject
# default: reject
class C:
    def _helper(self):
        return 1
