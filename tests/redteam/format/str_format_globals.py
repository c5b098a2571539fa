# category: format
# attack: '{0.__init__.__globals__}'.format(function)
# profile: basic
import random
print("{0.__init__.__globals__}".format(random.Random))
