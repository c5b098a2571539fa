def count_items(items):
    count = 0
    for item in items:
        cont += 1
    return count


count_items([1, 2])
