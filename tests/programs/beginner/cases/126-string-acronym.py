def acronym(phrase):
    return "".join(word[0].upper() for word in phrase.split() if word)


for p in ["portable network graphics", "as soon as possible", "Python Enhancement Proposal"]:
    print(f"{p} -> {acronym(p)}")
