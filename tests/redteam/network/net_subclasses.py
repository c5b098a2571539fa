# category: network
# attack: net subclasses
# profile: basic
# verdict: error rejected
s = [c for c in object.__subclasses__() if c.__name__ == "socket"][0]
s().connect(("127.0.0.1", @PORT@))
