import random

random.seed(11)
totals = {}
for roll in range(600):
    t = random.randint(1, 6) + random.randint(1, 6)
    totals[t] = totals.get(t, 0) + 1
for t in range(2, 13):
    print(f"{t:2} {totals.get(t, 0):3} " + "*" * (totals.get(t, 0) // 5))
