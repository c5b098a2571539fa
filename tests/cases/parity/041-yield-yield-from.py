# parity: Yield and YieldFrom are allowed (4.0b6) (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
def gen():
    yield 1
    yield from [2, 3]
