# category: network
# attack: a TCP server (bind, listen) on the host's addresses under the network profile
# profile: basic network
# run-layer: seccomp
import socket


def leak(what):
    print("@LEAK@", what)


s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
s.bind(("::", 0))
s.listen(8)
leak("listening on %r" % (s.getsockname(),))
socket.create_connection(("127.0.0.1", @PORT@)).close()
