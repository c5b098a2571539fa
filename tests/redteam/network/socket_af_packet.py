# category: network
# attack: AF_PACKET raw socket to sniff
# profile: basic
import socket
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 3)
print(s.recv(100))
