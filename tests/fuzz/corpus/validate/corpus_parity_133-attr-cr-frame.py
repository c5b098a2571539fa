# parity: cr_frame is in INSPECT_ATTRIBUTES (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: reject
def f(c):
    return c.cr_frame
