# parity: an attribute that is exactly _ is accepted (RESTRICTEDPYTHON.md §4)
# restricted: accept
# default: accept
class C:
    pass


c = C()
c._ = 1
y = c._
