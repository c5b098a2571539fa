# parity: __init__ at col_offset 0 is not excepted (and is not in a class) (RESTRICTEDPYTHON.md §3.2)
# restricted: reject
# default: reject
def __init__(self):
    pass
