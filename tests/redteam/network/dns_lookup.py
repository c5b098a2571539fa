# category: network
# attack: DNS resolution of a host name
# profile: basic
import socket
print(socket.gethostbyname("localhost"), socket.getaddrinfo("example.com", 80))
