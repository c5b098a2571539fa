# parity: Match has no visitor; default accepts match (see the default set in doc/pyward-rules.5) (RestrictedPython's node-type policy)
# restricted: reject
# default: accept
match 3:
    case 1:
        y = "one"
    case _:
        y = "other"
