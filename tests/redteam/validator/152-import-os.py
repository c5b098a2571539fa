# attack: import os and run a shell command
import os

os.system("echo escaped")
