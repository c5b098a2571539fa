# parity: Match has no visitor; default accepts match (SPEC §4) (RESTRICTEDPYTHON.md §2)
# restricted: reject
# default: accept
match 3:
    case 1:
        y = "one"
    case _:
        y = "other"
