names = ["Ava", "Liam", "Noah", "Emma"]
scores = [88, 92, 79, 95]
for i, name in enumerate(names, 1):
    print(i, name)
for name, score in zip(names, scores):
    print(f"{name}: {score}")
best = sorted(zip(scores, names), reverse=True)
print("Ranking:", [n for s, n in best])
print(dict(zip(names, scores)))
