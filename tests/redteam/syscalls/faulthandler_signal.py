# category: syscalls
# attack: faulthandler.register to dump other threads
# profile: basic
import faulthandler
faulthandler.dump_traceback_later(0.01)
