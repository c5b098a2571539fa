# category: syscalls
# attack: Setting the clock is not in the allow-list: seccomp stops it, names it
# profile: basic
# verdict: killed rejected
# blocked: syscall
# blocked-name: clock_settime
# Setting the clock is not in the allow-list: seccomp stops it, names it
import time
time.clock_settime(time.CLOCK_REALTIME, 0)
