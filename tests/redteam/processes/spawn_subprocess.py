# category: processes
# attack: subprocess.run(["touch", "@OUTSIDE@"])
# profile: basic
# verdict: error rejected
import subprocess
subprocess.run(["touch", "@OUTSIDE@"])
