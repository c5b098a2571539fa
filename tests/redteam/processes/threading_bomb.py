# category: processes
# attack: start threads until something gives
# profile: basic
# timeout: 2
import threading
ts = []
while True:
    t = threading.Thread(target=lambda: __import__("time").sleep(300))
    t.start()
    ts.append(t)
