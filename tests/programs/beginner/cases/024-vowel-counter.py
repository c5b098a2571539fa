def count_vowels(word):
    total = 0
    for letter in word.lower():
        if letter in "aeiou":
            total += 1
    return total


words = ["banana", "sky", "Education", "rhythm", "queue"]
for w in words:
    print(f"{w:10} has {count_vowels(w)} vowels")
print("Most vowels:", max(words, key=count_vowels))
