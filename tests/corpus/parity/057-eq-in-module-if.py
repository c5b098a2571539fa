# parity: the exception is an indentation test: __eq__ inside a module-level if is accepted (RESTRICTEDPYTHON.md §3.2)
# restricted: accept
# default: accept
if True:
    def __eq__(a, b):
        return a is b
