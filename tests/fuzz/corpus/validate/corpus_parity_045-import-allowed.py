# parity: Import and ImportFrom of allowed modules are allowed (RESTRICTEDPYTHON.md §2)
# restricted: accept
# default: accept
import math
from collections import Counter
import math as m
