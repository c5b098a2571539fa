def chunks(items, size):
    return [items[i:i + size] for i in range(0, len(items), size)]


letters = list("abcdefghij")
print(chunks(letters, 3))
print(chunks(list(range(8)), 4))
print(chunks([], 2))
