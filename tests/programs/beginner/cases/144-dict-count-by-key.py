sales = [("north", 120), ("south", 80), ("north", 45), ("east", 60), ("south", 30)]
totals = {}
counts = {}
for region, amount in sales:
    if region not in totals:
        totals[region] = 0
        counts[region] = 0
    totals[region] += amount
    counts[region] += 1
for region in sorted(totals):
    print(f"{region:6} total={totals[region]:4} avg={totals[region] / counts[region]:.1f}")
