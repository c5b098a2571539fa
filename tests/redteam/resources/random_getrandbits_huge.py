# category: resources
# attack: random.getrandbits(2**40) and a huge struct format to allocate past the memory limit
# profile: basic
# memory: 64m
import random, struct
try:
    struct.calcsize("1000000000000x")
    struct.pack("100000000000x")
except Exception as e:
    print(repr(e)[:60])
print(random.getrandbits(2 ** 31 - 1).bit_length())
