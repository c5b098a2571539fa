def to_roman(n):
    values = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
              (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = ""
    for value, symbol in values:
        while n >= value:
            out += symbol
            n -= value
    return out


for year in [1987, 2024, 3999, 4, 49]:
    print(year, to_roman(year))
