# parity: ag_frame is not in INSPECT_ATTRIBUTES (the async-generator gap) (RESTRICTEDPYTHON.md §4)
# restricted: accept
# default: ?
def f(ag):
    return ag.ag_frame
