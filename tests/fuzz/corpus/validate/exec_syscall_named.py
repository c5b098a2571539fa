# expect: killed
# blocked: syscall
# blocked-name: socket
# libuuid asks uuidd over an AF_UNIX socket: seccomp stops it, names it
import uuid
print(uuid.uuid1())
