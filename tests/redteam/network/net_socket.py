# category: network
# attack: socket.create_connection(("127.0.0.1", @PORT@)).sendall(b"hi")
# profile: basic
# verdict: error rejected
import socket
socket.create_connection(("127.0.0.1", @PORT@)).sendall(b"hi")
