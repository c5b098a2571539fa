# category: imports
# attack: from typing import * to pull private re-exports
# profile: basic
from typing import *
print(sys, collections)
