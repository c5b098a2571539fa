def gcd(a, b):
    while b:
        a, b = b, a % b
    return abs(a)


class Frac:
    def __init__(self, num, den):
        g = gcd(num, den)
        self.num = num // g
        self.den = den // g

    def __add__(self, other):
        return Frac(self.num * other.den + other.num * self.den, self.den * other.den)

    def __str__(self):
        return f"{self.num}/{self.den}"


half = Frac(1, 2)
third = Frac(1, 3)
print(half + third)
print(Frac(6, 8))
