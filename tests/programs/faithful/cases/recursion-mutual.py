# known: the traceback is longer than the report's cap: head and tail kept
def even(n):
    return odd(n - 1)


def odd(n):
    return even(n - 1)


even(10)
