# parity: the exception is an indentation test: __eq__ inside a module-level if is accepted (RestrictedPython's name rule, check_name)
# restricted: accept
# default: reject
# (default rejects: the default rules allow dunder method definitions only directly inside a class body; this one is at module level (see the default set in doc/pyward-rules.5))
if True:
    def __eq__(a, b):
        return a is b
