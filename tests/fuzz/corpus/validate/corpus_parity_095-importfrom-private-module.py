# parity: RestrictedPython does not check the module of from-import, but _mod is not on pyward's import allow-list (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
from _mod import x
