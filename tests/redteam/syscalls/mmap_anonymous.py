# category: syscalls
# attack: mmap module for an executable mapping
# profile: basic
import mmap
m = mmap.mmap(-1, 4096, prot=7)
print(m)
