# attack: read a single-underscore attribute of a library module
import random

print(random._os)
