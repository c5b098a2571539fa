# parity: the exception is an indentation test: __eq__ nested in a function is accepted (RESTRICTEDPYTHON.md §3.2)
# restricted: accept
# default: reject
# (default rejects: the default rules allow dunder method definitions only directly inside a class body; this one is nested in a function (SPEC.md §4))
def make():
    def __eq__(a, b):
        return a is b
    return 1
