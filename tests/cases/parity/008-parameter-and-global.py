# parity: a parameter that is also global: SyntaxError raised by the final compile() (RestrictedPython's compile pipeline)
# restricted: reject
# default: reject
def f(a):
    global a
