# parity: names listed in global are not checked: global _x is accepted (RESTRICTEDPYTHON.md §3)
# restricted: accept
# default: accept
def f():
    global _x
