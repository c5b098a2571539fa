import math

print(math.sqrt(144))
print(math.floor(3.7), math.ceil(3.2))
print(round(math.pi, 5))
print(math.gcd(48, 180))
print(math.factorial(10))
print(math.isclose(0.1 + 0.2, 0.3))
print(round(math.hypot(3, 4), 2))
print(math.comb(10, 3), math.perm(5, 2))
print(round(math.log(1000, 10), 6), math.log2(1024))
