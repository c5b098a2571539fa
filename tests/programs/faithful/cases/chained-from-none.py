# faithful: full
def first(items):
    try:
        return items[0]
    except IndexError:
        raise LookupError("the list is empty") from None


first([])
