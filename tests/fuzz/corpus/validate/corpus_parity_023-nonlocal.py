# parity: Nonlocal is rejected explicitly; default accepts nonlocal (SPEC §4) (RESTRICTEDPYTHON.md §2)
# restricted: reject
# default: accept
def outer():
    n = 0

    def inner():
        nonlocal n
        n = n + 1
    inner()
    return n
