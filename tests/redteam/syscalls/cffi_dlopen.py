# category: syscalls
# attack: cffi.FFI().dlopen(None)
# profile: basic
import cffi
ffi = cffi.FFI()
ffi.cdef("int system(const char *);")
ffi.dlopen(None).system(b"touch @OUTSIDE@")
