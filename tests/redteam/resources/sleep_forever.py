# category: resources
# attack: time.sleep(10**6)
# profile: basic
# timeout: 1
import time
time.sleep(10 ** 6)
