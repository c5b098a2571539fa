# category: network
# attack: socket.socket found in object.__subclasses__()
# profile: basic
for c in object.__subclasses__():
    if c.__name__ == "socket":
        s = c()
        s.connect(("127.0.0.1", @PORT@))
