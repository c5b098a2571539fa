# category: imports
# attack: relative import from the package of an allowed module
# profile: basic
from . import os
