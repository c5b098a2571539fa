# category: network
# attack: socket.create_connection to the loopback listener
# profile: basic
import socket
socket.create_connection(("127.0.0.1", @PORT@)).sendall(b"x")
