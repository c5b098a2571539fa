words = "a journey of a thousand miles begins with a single step".split()
by_length = {}
for w in words:
    by_length.setdefault(len(w), []).append(w)
for length in sorted(by_length):
    print(length, by_length[length])
