# parity: ImportFrom alias.name is checked (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
from random import _inst
