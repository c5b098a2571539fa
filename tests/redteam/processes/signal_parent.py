# category: processes
# attack: signal.pthread_kill / os.kill of the parent pid
# profile: basic
import signal
signal.raise_signal(9)
