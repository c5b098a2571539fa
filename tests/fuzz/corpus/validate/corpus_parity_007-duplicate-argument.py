# parity: duplicate argument: SyntaxError raised by the final compile() (RESTRICTEDPYTHON.md §1)
# restricted: reject
# default: reject
def f(a, a):
    return a
