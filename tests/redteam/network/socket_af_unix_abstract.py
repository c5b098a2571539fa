# category: network
# attack: socket.socketpair and an abstract AF_UNIX address (no file) to talk to host daemons
# profile: basic network
import socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect("\0/org/freedesktop/systemd1/notify")
