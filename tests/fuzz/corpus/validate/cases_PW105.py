from math import *  # error
from math import pi  # ok
