# parity: .__init__ on anything but super() is an attribute starting with _ (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: ?
class A:
    def __init__(self):
        self.a = 1


a = A()
a.__init__()
