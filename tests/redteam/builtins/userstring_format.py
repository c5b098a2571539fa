# category: builtins
# attack: collections.UserString.format calls the real str.format on the data
# profile: basic
# run-layer: guard
import collections
u = collections.UserString("{0.__init__.__globals__}")
import random
print(u.format(random.Random))
