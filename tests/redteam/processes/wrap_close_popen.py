# category: processes
# attack: os.popen via _wrap_close globals
# profile: basic
for c in object.__subclasses__():
    if c.__name__ == "_wrap_close":
        c.__init__.__globals__["popen"]("sleep 300 &")
