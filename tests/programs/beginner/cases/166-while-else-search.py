numbers = [4, 8, 15, 16, 23, 42]
target = 23
i = 0
while i < len(numbers):
    if numbers[i] == target:
        print("found", target, "at index", i)
        break
    i += 1
else:
    print(target, "not found")
for n in numbers:
    if n > 100:
        print("big number", n)
        break
else:
    print("no number above 100")
