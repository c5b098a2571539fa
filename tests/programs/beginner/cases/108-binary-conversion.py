def to_binary(n):
    if n == 0:
        return "0"
    digits = ""
    while n > 0:
        digits = str(n % 2) + digits
        n //= 2
    return digits


for n in [0, 5, 10, 255, 1024]:
    print(n, to_binary(n), int(to_binary(n), 2), f"{n:b}")
