def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


values = [factorial(n) for n in range(8)]
print(values)
print("20! =", factorial(20))
