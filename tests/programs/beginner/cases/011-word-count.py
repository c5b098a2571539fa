text = """the quick brown fox jumps over the lazy dog
the dog barks and the fox runs away"""
counts = {}
for word in text.split():
    if word in counts:
        counts[word] += 1
    else:
        counts[word] = 1
for word in sorted(counts):
    print(word, counts[word])
