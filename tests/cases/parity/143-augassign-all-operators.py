# parity: all 13 augmented operators are allowed on a name, @= included (RestrictedPython's rewrites)
# restricted: accept
# default: accept
n = 100
n -= 1
n *= 2
n /= 2
n //= 1
n %= 7
n **= 2
n = int(n)
n <<= 1
n >>= 1
n &= 255
n |= 1
n ^= 3
m = [[1]]
m @= m if False else m
