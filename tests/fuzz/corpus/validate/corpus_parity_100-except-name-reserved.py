# parity: an ExceptHandler named printed is rejected (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
try:
    pass
except Exception as printed:
    pass
