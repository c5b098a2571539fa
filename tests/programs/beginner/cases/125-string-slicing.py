word = "programming"
print(word[0], word[-1])
print(word[:3], word[3:7], word[7:])
print(word[::2])
print(word[::-1])
print(word.find("gram"), word.find("xyz"))
print(word.index("m"), word.rindex("m"))
print(word.center(17, "."))
