# category: syscalls
# attack: ctypes CDLL found among subclasses
# profile: basic
for c in object.__subclasses__():
    if c.__name__ == "CDLL":
        c(None).system(b"touch @OUTSIDE@")
