# category: imports
# attack: os.path.os and os.path.genericpath.os
# profile: basic filesystem
import os.path
print(os.path.os.system("touch @OUTSIDE@"))
