# parity: printed is reserved: a Store is rejected (RESTRICTEDPYTHON.md §3.4)
# restricted: reject
# default: reject
printed = ""
