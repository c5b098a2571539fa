# attack: call libc directly through ctypes
import ctypes

ctypes.CDLL(None).system(b"echo escaped")
