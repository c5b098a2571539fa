import statistics

scores = [72, 85, 90, 66, 85, 94, 78, 85, 60]
print("mean:", round(statistics.mean(scores), 2))
print("median:", statistics.median(scores))
print("mode:", statistics.mode(scores))
print("stdev:", round(statistics.stdev(scores), 3))
print("range:", max(scores) - min(scores))
