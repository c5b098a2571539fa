# attack: replace a function's code object with one compiled elsewhere
def harmless():
    return 1


def other():
    return 2


harmless.__code__ = other.__code__
print(harmless())
