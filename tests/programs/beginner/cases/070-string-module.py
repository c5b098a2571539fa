import string

print(string.ascii_lowercase)
print(string.digits)
text = "Hello, World! It's 2024."
no_punct = "".join(ch for ch in text if ch not in string.punctuation)
print(no_punct)
print(string.capwords("the quick brown fox"))
