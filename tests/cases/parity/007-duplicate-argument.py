# parity: duplicate argument: SyntaxError raised by the final compile() (RestrictedPython's compile pipeline)
# restricted: reject
# default: reject
def f(a, a):
    return a
