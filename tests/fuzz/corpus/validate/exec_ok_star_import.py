# expect: ok
# stdout: 4.0 3
from math import *
print(sqrt(16), floor(pi))
