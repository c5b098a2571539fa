# category: syscalls
# attack: sys.addaudithook(lambda *a: None)
# profile: basic
# verdict: error rejected
import sys
sys.addaudithook(lambda *a: None)
