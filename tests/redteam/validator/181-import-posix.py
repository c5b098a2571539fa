# attack: the posix module under os
import posix

print(posix.getcwd())
