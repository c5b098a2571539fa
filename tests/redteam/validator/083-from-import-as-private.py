# attack: import a name under a private alias
from math import pi as _pi

print(_pi)
