numbers = [5, 12, 7, 3, 18, 21, 4]
doubled = list(map(lambda n: n * 2, numbers))
big = list(filter(lambda n: n > 6, numbers))
as_text = list(map(str, numbers))
print(doubled)
print(big)
print(",".join(as_text))
print(sum(map(lambda n: n ** 2, numbers)))
print(sorted(numbers, key=lambda n: n % 5))
