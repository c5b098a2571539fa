def factorial(n):
    result = 1
    for k in range(2, n + 1):
        result *= k
    return result


for n in range(0, 11):
    print(f"{n}! = {factorial(n)}")
