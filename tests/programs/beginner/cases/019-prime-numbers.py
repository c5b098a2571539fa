def is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


primes = [n for n in range(100) if is_prime(n)]
print(primes)
print("Count:", len(primes))
