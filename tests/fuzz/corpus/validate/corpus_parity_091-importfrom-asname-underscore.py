# parity: ImportFrom alias.asname is checked (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
from math import pi as _pi
