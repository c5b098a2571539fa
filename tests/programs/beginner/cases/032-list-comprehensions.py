nums = list(range(1, 11))
squares = [n * n for n in nums]
evens = [n for n in nums if n % 2 == 0]
pairs = [(a, b) for a in range(1, 4) for b in range(a, 4)]
words = ["sun", "moon", "star", "sky"]
lengths = {w: len(w) for w in words}
print(squares)
print(evens)
print(pairs)
print(lengths)
print([w.upper() for w in words if "s" in w])
