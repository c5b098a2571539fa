# category: syscalls
# attack: sys.addaudithook / settrace to disable the hook
# profile: basic
import sys
sys.addaudithook(lambda *a: None)
