a = {1, 2, 3, 4, 5}
b = {4, 5, 6, 7}
print("union:", sorted(a | b))
print("intersection:", sorted(a & b))
print("difference:", sorted(a - b))
print("symmetric:", sorted(a ^ b))
print(3 in a, 3 in b)
words = ["pear", "apple", "pear", "fig", "apple", "plum"]
unique = sorted(set(words))
print(unique, len(unique))
