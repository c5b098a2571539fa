def is_isogram(word):
    letters = [c for c in word.lower() if c.isalpha()]
    return len(letters) == len(set(letters))


for w in ["lumberjacks", "background", "isograms", "six-year-old", "Alphabet"]:
    print(w, is_isogram(w))
