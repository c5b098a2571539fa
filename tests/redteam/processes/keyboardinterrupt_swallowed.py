# category: processes
# attack: catch the KeyboardInterrupt a session's time limit raises and keep running (killed after the grace period)
# profile: basic
# verdict: timeout
# timeout: 1
import time
while True:
    try:
        time.sleep(5)
    except KeyboardInterrupt:
        print("still here")
