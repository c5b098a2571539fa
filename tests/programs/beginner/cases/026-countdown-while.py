count = 10
while count > 0:
    print(count, end=" ")
    count -= 1
print("Liftoff!")
n = 27
steps = 0
while n != 1:
    n = n // 2 if n % 2 == 0 else 3 * n + 1
    steps += 1
print("Collatz steps for 27:", steps)
