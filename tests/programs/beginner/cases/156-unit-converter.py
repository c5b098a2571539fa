conversions = {
    ("km", "mi"): 0.621371,
    ("kg", "lb"): 2.20462,
    ("l", "gal"): 0.264172,
}


def convert(value, unit_from, unit_to):
    if (unit_from, unit_to) in conversions:
        return value * conversions[(unit_from, unit_to)]
    if (unit_to, unit_from) in conversions:
        return value / conversions[(unit_to, unit_from)]
    raise KeyError(f"no conversion {unit_from}->{unit_to}")


print(round(convert(10, "km", "mi"), 3))
print(round(convert(10, "lb", "kg"), 3))
try:
    convert(1, "km", "kg")
except KeyError as e:
    print("Error:", e)
