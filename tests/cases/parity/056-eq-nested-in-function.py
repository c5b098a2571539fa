# parity: the exception is an indentation test: __eq__ nested in a function is accepted (RestrictedPython's name rule, check_name)
# restricted: accept
# default: reject
# (default rejects: the default rules allow dunder method definitions only directly inside a class body; this one is nested in a function (see the default set in doc/pyward-rules.5))
def make():
    def __eq__(a, b):
        return a is b
    return 1
