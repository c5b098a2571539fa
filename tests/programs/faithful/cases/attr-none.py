def find(items, key):
    for item in items:
        if item == key:
            return item


found = find([1, 2], 3)
print(found.upper())
