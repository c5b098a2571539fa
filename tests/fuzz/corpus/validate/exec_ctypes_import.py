# expect: error
import ctypes
ctypes.CDLL(None).system(b"id")
