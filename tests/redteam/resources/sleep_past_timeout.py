# category: resources
# attack: time.sleep(100)
# profile: basic
# verdict: timeout rejected
# timeout: 1
import time
time.sleep(100)
