# parity: the module in from-import is not name-checked (math._mod is a submodule of an allowed module) (RESTRICTEDPYTHON.md §3)
# restricted: accept
# default: ?
from math._mod import x
