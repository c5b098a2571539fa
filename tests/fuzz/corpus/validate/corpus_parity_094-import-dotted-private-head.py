# parity: import _a.b starts with _ (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
import _a.b
