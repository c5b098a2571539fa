# category: syscalls
# attack: import ctypes and call libc system
# profile: basic
import ctypes
ctypes.CDLL(None).system(b"touch @OUTSIDE@")
