# attack: star import even from an allowed module
from math import *

print(pi)
