# category: processes
# attack: for i in range(10000): / _thread.start_new_thread(print, ())
# profile: basic
# verdict: error rejected
import _thread
for i in range(10000):
    _thread.start_new_thread(print, ())
