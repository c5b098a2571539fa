# category: network
# attack: AF_UNIX socket to a host service
# profile: basic
import socket
s = socket.socket(socket.AF_UNIX)
s.connect("/run/systemd/private")
