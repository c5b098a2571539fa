# parity: a parameter that is also global: SyntaxError raised by the final compile() (RESTRICTEDPYTHON.md §1)
# restricted: reject
# default: reject
def f(a):
    global a
