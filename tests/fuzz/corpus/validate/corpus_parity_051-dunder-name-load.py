# parity: a dunder name such as __builtins__ starts with _ (RESTRICTEDPYTHON.md §3.2)
# restricted: reject
# default: reject
b = __builtins__
