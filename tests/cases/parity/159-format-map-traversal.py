# parity: format_map with an attribute traversal inside the string passes the static policy (RestrictedPython's published advisories and gaps pyward must cover)
# restricted: accept
# default: reject
# (default rejects: the default rules add format-string traversal checks (PW207) on top of RestrictedPython's policy)
s = "{x.__class__.__mro__}".format_map({"x": 1})
