import random
import string

rng = random.Random(99)
alphabet = string.ascii_letters + string.digits
for i in range(3):
    pw = "".join(rng.choice(alphabet) for k in range(12))
    print(pw, any(c.isdigit() for c in pw))
print(rng.sample(range(1, 50), 6))
