# expect: timeout
# args: --timeout 1
import time
time.sleep(100)
