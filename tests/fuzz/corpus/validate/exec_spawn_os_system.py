# expect: error
# check: nofile
import os
os.system("touch @OUTSIDE@")
