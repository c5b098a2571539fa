def digit_sum(n):
    if n < 10:
        return n
    return n % 10 + digit_sum(n // 10)


def digital_root(n):
    while n >= 10:
        n = digit_sum(n)
    return n


for n in [0, 7, 38, 12345, 987654321]:
    print(n, digit_sum(n), digital_root(n))
