from datetime import date

birthday = input("Birth date (YYYY-MM-DD): ")
year, month, day = [int(p) for p in birthday.split("-")]
born = date(year, month, day)
today = date(2025, 6, 1)
age = today.year - born.year
if (today.month, today.day) < (born.month, born.day):
    age -= 1
print("You are", age, "years old on", today)
