# parity: Import and ImportFrom of allowed modules are allowed (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
import math
from collections import Counter
import math as m
