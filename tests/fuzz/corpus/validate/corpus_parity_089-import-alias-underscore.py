# parity: Import alias.asname is checked (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
import math as _m
