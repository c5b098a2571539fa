from collections import Counter

votes = ["red", "blue", "red", "green", "blue", "red", "yellow", "blue", "red"]
tally = Counter(votes)
for color, n in tally.most_common():
    print(f"{color:7} {n}")
print("Winner:", tally.most_common(1)[0][0])
print("Total votes:", sum(tally.values()))
