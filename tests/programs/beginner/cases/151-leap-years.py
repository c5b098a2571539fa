def is_leap(year):
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


for y in [1900, 2000, 2023, 2024, 2100]:
    print(y, "leap" if is_leap(y) else "common")
print(sum(1 for y in range(2000, 2101) if is_leap(y)), "leap years in 2000-2100")
