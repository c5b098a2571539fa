values = [-3.14159, 2.71828, -0.5, 1.5, 2.5]
for v in values:
    print(v, abs(v), round(v), round(v, 2))
print(pow(2, 10), pow(3, 4, 5), 2 ** -1)
print(divmod(17, 5), divmod(-17, 5))
