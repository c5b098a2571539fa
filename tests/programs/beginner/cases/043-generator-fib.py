def fibonacci():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


result = []
for value in fibonacci():
    if value > 500:
        break
    result.append(value)
print(result)
evens = (x for x in result if x % 2 == 0)
print(sum(evens))
