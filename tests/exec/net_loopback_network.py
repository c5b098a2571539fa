# expect: ok
# args: --profile network
# check: conn
# stdout: connected
import socket
socket.create_connection(("127.0.0.1", @PORT@), timeout=5).close()
print("connected")
