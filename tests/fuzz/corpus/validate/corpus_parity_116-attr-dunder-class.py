# parity: __class__ starts with _ (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: reject
k = ().__class__
