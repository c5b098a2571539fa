# parity: the exception is an indentation test: __eq__ nested in a function is accepted (RESTRICTEDPYTHON.md §3.2)
# restricted: accept
# default: accept
def make():
    def __eq__(a, b):
        return a is b
    return 1
