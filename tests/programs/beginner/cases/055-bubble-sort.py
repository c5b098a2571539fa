def bubble_sort(values):
    items = list(values)
    n = len(items)
    for i in range(n):
        swapped = False
        for j in range(n - 1 - i):
            if items[j] > items[j + 1]:
                items[j], items[j + 1] = items[j + 1], items[j]
                swapped = True
        if not swapped:
            break
    return items


data = [64, 34, 25, 12, 22, 11, 90]
print(bubble_sort(data))
print(data)
