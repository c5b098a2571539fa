# category: imports
# attack: from . import os: a relative import at the top level
# profile: basic
# verdict: error rejected
from . import os
