# parity: Constant ... is allowed (8.2) (RESTRICTEDPYTHON.md §2)
# restricted: accept
# default: accept
def todo():
    ...
