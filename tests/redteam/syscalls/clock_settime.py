# category: syscalls
# attack: time.clock_settime: a system call the allow-list does not have
# profile: basic
import time
time.clock_settime(time.CLOCK_REALTIME, 0.0)
