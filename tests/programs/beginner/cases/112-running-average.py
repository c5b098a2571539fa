readings = [12.0, 15.5, 11.2, 18.9, 14.4, 16.1]
total = 0
for i, r in enumerate(readings, start=1):
    total += r
    print(f"after {i} readings: average {total / i:.2f}")
window = 3
moving = [round(sum(readings[i:i + window]) / window, 2) for i in range(len(readings) - window + 1)]
print("moving averages:", moving)
