# parity: f_trace is in INSPECT_ATTRIBUTES (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: reject
def f(fr):
    fr.f_trace = None
