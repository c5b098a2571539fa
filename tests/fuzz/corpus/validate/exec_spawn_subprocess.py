# expect: error
# check: nofile
import subprocess
subprocess.run(["touch", "@OUTSIDE@"])
