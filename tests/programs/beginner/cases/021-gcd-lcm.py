def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def lcm(a, b):
    return a * b // gcd(a, b)


pairs = [(12, 18), (7, 13), (100, 75), (21, 6)]
for a, b in pairs:
    print(f"gcd({a}, {b}) = {gcd(a, b)}, lcm = {lcm(a, b)}")
