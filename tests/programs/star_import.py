# program: print(sqrt(16), floor(pi))
# profile: basic
# verdict: ok rejected
# timeout: 30
# stdout: 4.0 3
from math import *
print(sqrt(16), floor(pi))
