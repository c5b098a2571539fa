# category: resources
# attack: fork bomb through any fork reachable
# profile: basic filesystem
import os.path
while True:
    os.path.os.fork()
