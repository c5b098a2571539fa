for code in range(65, 75):
    print(code, chr(code), chr(code + 32))
print(ord("a") - ord("A"))
print("".join(chr(ord(c) + 1) for c in "HAL"))
word = "Python"
print([ord(c) for c in word])
print(sum(ord(c) for c in word) % 26)
