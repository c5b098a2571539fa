# parity: the exception is an indentation test: __eq__ inside a module-level if is accepted (RESTRICTEDPYTHON.md §3.2)
# restricted: accept
# default: reject
# (default rejects: the default rules allow dunder method definitions only directly inside a class body; this one is at module level (SPEC.md §4))
if True:
    def __eq__(a, b):
        return a is b
