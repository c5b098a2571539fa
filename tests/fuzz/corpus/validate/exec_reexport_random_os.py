# expect: error
import random
random._os.system("id")
