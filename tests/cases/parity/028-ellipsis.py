# parity: Constant ... is allowed (8.2) (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
def todo():
    ...
