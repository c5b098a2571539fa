# category: network
# attack: with the network profile, connect to a service on the host's loopback
# profile: basic network
import socket
socket.create_connection(("127.0.0.1", @PORT@), timeout=2).sendall(b"x")
