import hashlib

for word in ["hello", "Hello", "pyward"]:
    digest = hashlib.sha256(word.encode()).hexdigest()
    print(word, digest[:16])
print(hashlib.md5(b"abc").hexdigest())
