import itertools

toppings = ["cheese", "ham", "olives", "peppers"]
for pair in itertools.combinations(toppings, 2):
    print(" + ".join(pair))
print(list(itertools.permutations("abc", 2)))
print(list(itertools.accumulate([1, 2, 3, 4, 5])))
print(list(itertools.islice(itertools.count(10, 5), 4)))
