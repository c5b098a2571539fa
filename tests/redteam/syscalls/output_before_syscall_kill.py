# category: syscalls
# attack: print a line, then make a system call outside the allow-list: the run is killed, the line comes back
# profile: basic
# verdict: killed
# blocked: syscall
# stdout: before
import time
print("before")
time.clock_settime(time.CLOCK_REALTIME, 0)
