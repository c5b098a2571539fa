def divisors(n):
    return [d for d in range(1, n) if n % d == 0]


perfect = [n for n in range(2, 1000) if sum(divisors(n)) == n]
print("Perfect numbers below 1000:", perfect)
print("Divisors of 28:", divisors(28))
