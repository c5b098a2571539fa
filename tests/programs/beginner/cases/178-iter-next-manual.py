colors = ["red", "green", "blue"]
it = iter(colors)
print(next(it))
print(next(it))
print(next(it))
print(next(it, "no more"))
numbers = iter(range(3))
try:
    while True:
        print("got", next(numbers))
except StopIteration:
    print("iterator exhausted")
