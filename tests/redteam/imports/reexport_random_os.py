# category: imports
# attack: random._os.system("id")
# profile: basic
# verdict: error rejected
import random
random._os.system("id")
