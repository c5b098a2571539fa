# parity: any * import is rejected (4.0b4), even from an allowed module (RESTRICTEDPYTHON.md §3)
# restricted: reject
# default: reject
from math import *
