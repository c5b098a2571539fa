# category: processes
# attack: posix.posix_spawn("/usr/bin/touch", ["touch", "@OUTSIDE@"], {})
# profile: basic
# verdict: error rejected
import posix
posix.posix_spawn("/usr/bin/touch", ["touch", "@OUTSIDE@"], {})
