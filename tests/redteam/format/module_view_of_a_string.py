# category: format
# attack: build a module view around a str with type(view)(...): the view reads attributes unguarded, so .format is the raw str.format
# profile: basic
# run-layer: guard
import math
V = type(math)
f = V("{0.__init__.__globals__}", "string", True).format
import random
print(f(random.Random))
