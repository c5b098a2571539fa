from collections import defaultdict

words = ["apple", "avocado", "banana", "blueberry", "cherry", "cranberry", "date"]
by_letter = defaultdict(list)
for w in words:
    by_letter[w[0]].append(w)
for letter in sorted(by_letter):
    print(letter, by_letter[letter])
lengths = defaultdict(int)
for w in words:
    lengths[len(w)] += 1
print(dict(sorted(lengths.items())))
