# expect: error
# check: noconn
import socket
socket.create_connection(("127.0.0.1", @PORT@)).sendall(b"hi")
