# category: processes
# attack: spawn popen subclasses
# profile: basic
# verdict: error rejected
for c in [].__class__.__mro__[-1].__subclasses__():
    if c.__name__ == "Popen":
        c(["touch", "@OUTSIDE@"])
