# category: imports
# attack: plain import os
# profile: basic
import os
os.system('touch @OUTSIDE@')
