# expect: error
# check: alive
import signal
signal.pthread_kill(@TESTPID@, 9)
