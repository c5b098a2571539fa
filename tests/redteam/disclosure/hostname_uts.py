# category: disclosure
# attack: the host name and uid seen from inside
# profile: basic
import socket
print(socket.gethostname())
