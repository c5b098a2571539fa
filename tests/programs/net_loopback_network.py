# program: socket.create_connection(("127.0.0.1", @PORT@), timeout=5).close() / print("connected")
# profile: network
# verdict: ok
# timeout: 30
# stdout: connected
# connects: yes
import socket
socket.create_connection(("127.0.0.1", @PORT@), timeout=5).close()
print("connected")
