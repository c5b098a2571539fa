# category: processes
# attack: signal.pthread_kill(@TESTPID@, 9)
# profile: basic
# verdict: error rejected
import signal
signal.pthread_kill(@TESTPID@, 9)
