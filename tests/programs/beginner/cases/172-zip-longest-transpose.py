from itertools import zip_longest

names = ["Ann", "Bob", "Cyd"]
ages = [31, 27]
for name, age in zip_longest(names, ages, fillvalue="?"):
    print(name, age)
table = [(1, 2, 3), (4, 5, 6)]
print(list(zip(*table)))
