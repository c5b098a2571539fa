from datetime import date, timedelta

start = date(2024, 1, 15)
print(start.isoformat(), start.strftime("%A"))
deadline = start + timedelta(days=45)
print("Deadline:", deadline)
print("Days between:", (date(2024, 12, 25) - start).days)
for i in range(3):
    d = start + timedelta(weeks=i)
    print(d.strftime("%d %b %Y"))
