# parity: positional-only parameters are checked (8.3, CVE-2026-55830) (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
def f(_getattr_=None, /):
    return 1
