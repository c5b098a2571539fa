# parity: the ExceptHandler name is checked (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
try:
    pass
except Exception as _e:
    pass
