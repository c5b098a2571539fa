def subsets(items):
    if not items:
        return [[]]
    rest = subsets(items[1:])
    return rest + [[items[0]] + s for s in rest]


for s in sorted(subsets(["a", "b", "c"]), key=lambda s: (len(s), s)):
    print(s)
