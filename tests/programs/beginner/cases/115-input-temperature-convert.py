raw = input("Temperature (e.g. 30C or 86F): ").strip()
value = float(raw[:-1])
unit = raw[-1].upper()
if unit == "C":
    print(f"{value}C = {value * 9 / 5 + 32:.1f}F")
elif unit == "F":
    print(f"{value}F = {(value - 32) * 5 / 9:.1f}C")
else:
    print("Unknown unit", unit)
