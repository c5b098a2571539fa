n = 10
total = 0
for i in range(1, n + 1):
    total = total + i
print("Sum of 1 to", n, "is", total)
print("Formula gives", n * (n + 1) // 2)
if total == n * (n + 1) // 2:
    print("They match!")
