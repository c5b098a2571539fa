def celsius_to_fahrenheit(c):
    return c * 9 / 5 + 32


print("Celsius  Fahrenheit")
for c in range(-10, 41, 10):
    f = celsius_to_fahrenheit(c)
    print(f"{c:7d}  {f:10.1f}")
