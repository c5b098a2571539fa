def rotate(items, k):
    if not items:
        return items
    k %= len(items)
    return items[-k:] + items[:-k]


data = [1, 2, 3, 4, 5]
for k in [0, 1, 2, 5, 7, -1]:
    print(k, rotate(data, k))
