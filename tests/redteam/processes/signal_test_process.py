# category: processes
# attack: os.kill(@TESTPID@, 9)
# profile: basic
# verdict: error rejected
import os
os.kill(@TESTPID@, 9)
