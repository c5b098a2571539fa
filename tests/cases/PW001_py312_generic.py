# Python 3.12 generic function.
def first[T](items: list[T]) -> T:
    return items[0]
