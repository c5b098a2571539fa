# parity: "{0.__class__}".format(1) passes the static policy (safer_getattr stops it at run time) (RESTRICTEDPYTHON.md §10)
# restricted: accept
# default: accept
s = "{0.__class__}".format(1)
