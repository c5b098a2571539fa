# parity: a FunctionDef name starting with _ is rejected (RESTRICTEDPYTHON.md §3.2)
# restricted: reject
# default: reject
def _helper():
    return 1
