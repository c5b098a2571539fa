# attack: import os.path without the filesystem profile
import os.path

print(os.path.exists("/etc/passwd"))
