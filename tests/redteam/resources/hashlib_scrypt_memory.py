# category: resources
# attack: hashlib.scrypt with a huge cost to take the host's memory
# profile: basic
import hashlib
print(hashlib.scrypt(b"x", salt=b"y", n=2 ** 20, r=8, p=1, maxmem=2 ** 31 - 1))
