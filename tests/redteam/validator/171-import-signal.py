# attack: ignore the timeout signal
import signal

signal.signal(signal.SIGALRM, signal.SIG_IGN)
