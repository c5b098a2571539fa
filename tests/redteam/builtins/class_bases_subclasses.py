# category: builtins
# attack: __class__ (now type(x)) then __bases__ and __subclasses__ to find a class that holds os
# profile: basic
# verdict: error rejected
# run-layer: guard
base = ().__class__.__bases__[0]
for c in base.__subclasses__():
    if c.__name__ == "_wrap_close":
        c.__init__.__globals__["system"]("cat @SECRET_FILE@ > @OUTSIDE@")
