import calendar

print(calendar.month(2024, 2))
print("2024 leap?", calendar.isleap(2024))
print("Days in Feb 2023:", calendar.monthrange(2023, 2)[1])
print(calendar.day_name[calendar.weekday(2000, 1, 1)])
