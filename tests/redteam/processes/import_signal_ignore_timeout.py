# category: processes
# attack: import signal (no profile needs it) to ignore the timeout's signal, by name and through importlib from a library
# profile: data_science basic
# run-layer: audit hook
import pandas.compat._optional as opt
sig = opt.import_optional_dependency("signal")
sig.signal(sig.SIGALRM, sig.SIG_IGN)
