# parity: Global is allowed (RESTRICTEDPYTHON.md §2)
# restricted: accept
# default: accept
total = 0


def add(n):
    global total
    total = total + n
