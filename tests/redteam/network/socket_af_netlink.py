# category: network
# attack: AF_NETLINK socket to read routes
# profile: basic
import socket
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
s.bind((0, 0))
