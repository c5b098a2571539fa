def fib(n):
    a, b = 0, 1
    seq = []
    for i in range(n):
        seq.append(a)
        a, b = b, a + b
    return seq


print("First 15 Fibonacci numbers:")
print(fib(15))
print("Sum:", sum(fib(15)))
