# attack: spawn a process through subprocess
import subprocess

print(subprocess.run(["echo", "escaped"], capture_output=True).stdout)
