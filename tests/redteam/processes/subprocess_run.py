# category: processes
# attack: subprocess.run a long sleep
# profile: basic
import subprocess
subprocess.Popen(["sleep", "300"])
