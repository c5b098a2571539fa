# parity: os is on no profile's allow-list (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
import os
