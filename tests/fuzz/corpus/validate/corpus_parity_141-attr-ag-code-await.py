# parity: ag_code and ag_await are not in INSPECT_ATTRIBUTES (RESTRICTEDPYTHON.md §4)
# restricted: accept
# default: ?
def f(ag):
    return ag.ag_code, ag.ag_await
