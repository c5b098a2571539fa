pairs = [("a", "b"), ("b", "a"), ("c", "d")]
seen = {}
for p in pairs:
    key = frozenset(p)
    seen[key] = seen.get(key, 0) + 1
for key, n in seen.items():
    print(sorted(key), n)
