# parity: TryStar (except*) is rejected explicitly (RestrictedPython's node-type policy)
# restricted: reject
# default: reject
try:
    pass
except* ValueError:
    pass
