# parity: TryStar (except*) is rejected explicitly (RESTRICTEDPYTHON.md §2)
# restricted: reject
# default: reject
try:
    pass
except* ValueError:
    pass
