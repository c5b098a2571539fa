# parity: an attribute starting with _ is rejected (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: reject
import random

x = random._inst
