# category: builtins
# attack: obj.__class__.__mro__[-1].__subclasses__() and type(x).mro() from the program's own object
# profile: basic
# verdict: error rejected
# run-layer: guard
class Mine:
    pass


top = Mine().__class__.__mro__[-1]
print([c for c in top.__subclasses__() if c.__name__ == "catch_warnings"])
