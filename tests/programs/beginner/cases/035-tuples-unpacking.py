point = (3, 7)
x, y = point
print("x =", x, "y =", y)
first, *middle, last = [1, 2, 3, 4, 5, 6]
print(first, middle, last)
a, b = 1, 2
a, b = b, a
print(a, b)
records = [("Ann", 31), ("Ben", 25), ("Cleo", 40)]
for name, age in records:
    print(f"{name} is {age}")
oldest = max(records, key=lambda r: r[1])
print("Oldest:", oldest[0])
