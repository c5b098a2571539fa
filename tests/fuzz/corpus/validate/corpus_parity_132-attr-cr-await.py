# parity: cr_await is in INSPECT_ATTRIBUTES (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: reject
def f(c):
    return c.cr_await
