# parity: "{0.__class__}".format(1) passes the static policy (safer_getattr stops it at run time) (RestrictedPython's gaps pyward must cover)
# restricted: accept
# default: reject
# (default rejects: the default rules add format-string traversal checks (PW207) on top of RestrictedPython's policy)
s = "{0.__class__}".format(1)
