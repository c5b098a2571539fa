# attack: print the expected answer, then make a system call outside the allow-list (the run is killed, whatever it printed)
# expected-stdout: 42
# verdict: RE CE
import time
print(42, flush=True)
time.clock_settime(time.CLOCK_REALTIME, 0)
