# expect: error
# check: alive
import os
os.kill(@TESTPID@, 9)
