# parity: Global is allowed (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
total = 0


def add(n):
    global total
    total = total + n
