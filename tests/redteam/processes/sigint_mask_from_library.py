# category: processes
# attack: import signal through a library to block or ignore SIGINT, so a session's time limit cannot interrupt it
# profile: data_science basic
# run-layer: audit hook
import pandas.compat._optional as opt
sig = opt.import_optional_dependency("signal")
sig.pthread_sigmask(sig.SIG_BLOCK, {sig.SIGINT})
sig.signal(sig.SIGINT, sig.SIG_IGN)
while True:
    pass
