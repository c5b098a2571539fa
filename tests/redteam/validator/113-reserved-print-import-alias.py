# attack: import something as print
from math import sqrt as print
