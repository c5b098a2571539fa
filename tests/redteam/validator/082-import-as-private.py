# attack: import a module under a private alias
import math as _m

print(_m.pi)
