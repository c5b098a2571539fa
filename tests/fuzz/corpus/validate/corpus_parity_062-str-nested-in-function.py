# parity: __str__ is not excepted even when indented (RESTRICTEDPYTHON.md §3.2)
# restricted: reject
# default: ?
def make():
    def __str__(self):
        return "x"
    return 1
