count: int = 0
total: float = 0.0
labels: dict[str, int] = {}
for word in "one two three two one two".split():
    count += 1
    labels[word] = labels.get(word, 0) + 1
    total += len(word)
print(count, labels)
print("average length:", round(total / count, 2))
