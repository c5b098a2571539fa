# parity: f_lineno is not in INSPECT_ATTRIBUTES (RESTRICTEDPYTHON.md §4)
# restricted: accept
# default: accept
def f(fr):
    return fr.f_lineno
