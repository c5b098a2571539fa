# attack: raise resource limits
import resource

print(resource.getrlimit(resource.RLIMIT_AS))
