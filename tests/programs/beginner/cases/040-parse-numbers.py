raw = ["12", "seven", "3.5", "-4", "", "100"]
total = 0
bad = []
for item in raw:
    try:
        total += int(item)
    except ValueError:
        bad.append(item)
print("Total of integers:", total)
print("Could not parse:", bad)
