from itertools import groupby

data = [("fruit", "apple"), ("fruit", "pear"), ("veg", "kale"), ("veg", "leek"), ("nut", "pecan")]
for kind, group in groupby(data, key=lambda pair: pair[0]):
    names = [name for k, name in group]
    print(kind, names)
runs = [(k, len(list(g))) for k, g in groupby("aaabccddddde")]
print(runs)
