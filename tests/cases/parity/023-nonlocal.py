# parity: Nonlocal is rejected explicitly; default accepts nonlocal (see the default set in doc/pyward-rules.5) (RestrictedPython's node-type policy)
# restricted: reject
# default: accept
def outer():
    n = 0

    def inner():
        nonlocal n
        n = n + 1
    inner()
    return n
