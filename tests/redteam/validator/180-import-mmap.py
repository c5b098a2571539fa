# attack: map memory directly
import mmap

print(mmap.PAGESIZE)
