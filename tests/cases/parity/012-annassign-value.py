# parity: AnnAssign has no visitor; default accepts annotated assignment (see the default set in doc/pyward-rules.5) (RestrictedPython's node-type policy)
# restricted: reject
# default: accept
x: int = 1
