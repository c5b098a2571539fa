# category: processes
# attack: for i in range(10000): / threading.Thread(target=lambda: None).start()
# profile: basic
# verdict: error rejected
import threading
for i in range(10000):
    threading.Thread(target=lambda: None).start()
