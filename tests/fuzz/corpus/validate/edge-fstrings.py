a = 1
print(f"{a!r:>{a}} {f'{a}'} {a=}")
print(f"{a.__class__}")
