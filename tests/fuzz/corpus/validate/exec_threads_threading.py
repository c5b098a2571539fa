# expect: error
import threading
for i in range(10000):
    threading.Thread(target=lambda: None).start()
