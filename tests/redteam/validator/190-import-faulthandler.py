# attack: faulthandler writes to arbitrary file descriptors
import faulthandler

faulthandler.dump_traceback(all_threads=True)
