sentence = "to be or not to be that is the question"
counts = {}
for word in sentence.split():
    counts[word] = counts.get(word, 0) + 1
top = sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))
for word, n in top[:4]:
    print(f"{word}: {n}")
