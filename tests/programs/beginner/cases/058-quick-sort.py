def quicksort(items):
    if len(items) < 2:
        return items
    pivot = items[0]
    smaller = [x for x in items[1:] if x < pivot]
    larger = [x for x in items[1:] if x >= pivot]
    return quicksort(smaller) + [pivot] + quicksort(larger)


print(quicksort([3, 6, 1, 8, 2, 9, 2]))
print(quicksort(list("pyward")))
