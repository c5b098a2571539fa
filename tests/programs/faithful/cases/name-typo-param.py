def average(values):
    return sum(valeus) / len(values)


print(average([1, 2, 3]))
