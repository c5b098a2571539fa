grades = [88, 92, 79, 65, 95, 70, 84, 91]
n = len(grades)
mean = sum(grades) / n
variance = sum((g - mean) ** 2 for g in grades) / n
ordered = sorted(grades)
median = (ordered[n // 2 - 1] + ordered[n // 2]) / 2 if n % 2 == 0 else ordered[n // 2]
print(f"mean={mean:.2f} median={median} sd={variance ** 0.5:.2f}")
print("above mean:", [g for g in grades if g > mean])
