# category: processes
# attack: os.system("touch @OUTSIDE@")
# profile: basic
# verdict: error rejected
import os
os.system("touch @OUTSIDE@")
