principal = 1000.0
rate = 0.05
for year in range(1, 11):
    principal *= 1 + rate
    print(f"Year {year:2}: ${principal:,.2f}")
print("Doubling time (rule of 72):", 72 / (rate * 100), "years")
