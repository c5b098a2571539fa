import math as _m  # error
import math as m  # ok
