items = ["b", "a", "c", "a", "b", "d", "c", "e"]
seen = []
for x in items:
    if x not in seen:
        seen.append(x)
print(seen)
print(list(dict.fromkeys(items)))
