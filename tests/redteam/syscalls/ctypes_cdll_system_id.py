# category: syscalls
# attack: ctypes.CDLL(None).system(b"id")
# profile: basic
# verdict: error rejected
import ctypes
ctypes.CDLL(None).system(b"id")
