# category: network
# attack: a UDP server bound on the host's addresses under the network profile
# profile: basic network
# run-layer: seccomp
import socket


def leak(what):
    print("@LEAK@", what)


s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", 0))
leak("bound UDP %r" % (s.getsockname(),))
# Tell the suite's listener that the server is up.
socket.create_connection(("127.0.0.1", @PORT@)).close()
