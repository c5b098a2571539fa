# parity: names listed in global are not checked (RESTRICTEDPYTHON.md §3)
# restricted: accept
# default: accept
def f():
    global print
