# category: syscalls
# attack: a Python SIGSYS handler installed before a refused system call, so the program would survive the trap and report success
# profile: basic
# verdict: killed rejected error
# never: survived the trap
try:
    import signal
    signal.signal(signal.SIGSYS, lambda *a: None)
except Exception:
    pass
import time
try:
    time.clock_settime(time.CLOCK_REALTIME, 1.0)
except Exception:
    pass
print("survived the trap")
