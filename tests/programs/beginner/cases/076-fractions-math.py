from fractions import Fraction

a = Fraction(1, 3)
b = Fraction(1, 6)
print(a + b)
print(a * b, a / b)
total = sum(Fraction(1, n) for n in range(1, 6))
print("Harmonic 5:", total, float(total))
print(Fraction("0.125"))
