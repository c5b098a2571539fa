# category: imports
# attack: import os.path then walk back to os
# profile: basic filesystem
import os.path
print(os.system)
