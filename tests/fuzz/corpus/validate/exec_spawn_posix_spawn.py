# expect: error
# check: nofile
import posix
posix.posix_spawn("/usr/bin/touch", ["touch", "@OUTSIDE@"], {})
