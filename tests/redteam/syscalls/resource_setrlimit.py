# category: syscalls
# attack: resource.setrlimit to raise the limits
# profile: basic
import resource
resource.setrlimit(resource.RLIMIT_AS, (-1, -1))
