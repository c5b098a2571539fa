# A first program: ask for a name, greet, and count the letters.
name = input("What is your name? ")
print(f"Hello, {name}!")
counts = {}
for ch in name.lower():
    if ch.isalpha():
        counts[ch] = counts.get(ch, 0) + 1
for ch, n in sorted(counts.items()):
    print(ch, n)
