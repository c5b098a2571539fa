# category: disclosure
# attack: socket.gethostname() in the network profile: the host's name through the UTS namespace
# profile: basic network
import socket


def leak(what):
    print("@LEAK@", what)


name = socket.gethostname()
print(name)
if name == "@HOSTNAME@":
    leak("the host name")
