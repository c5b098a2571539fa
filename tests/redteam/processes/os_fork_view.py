# category: processes
# attack: os.fork through os.path's module
# profile: basic filesystem
import os.path
os.path.os.fork()
