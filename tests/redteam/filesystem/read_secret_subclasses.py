# category: filesystem
# attack: read secret subclasses
# profile: basic
# verdict: error rejected
for c in ().__class__.__base__.__subclasses__():
    if c.__name__ == "_wrap_close":
        print(c.__init__.__globals__["popen"]("cat @SECRET_FILE@").read())
