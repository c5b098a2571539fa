# parity: an import alias named builtins is rejected (RESTRICTEDPYTHON.md §3.4)
# restricted: reject
# default: reject
import math as builtins
