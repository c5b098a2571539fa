# expect: error
import _thread
for i in range(10000):
    _thread.start_new_thread(print, ())
