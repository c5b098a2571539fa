count = int(input())
total = 0
for i in range(count):
    value = int(input())
    total += value
print("Sum:", total)
print("Average:", total / count)
