# parity: an alias of exactly _ passes the name rule (RESTRICTEDPYTHON.md §3.1)
# restricted: accept
# default: accept
import math as _
