# category: builtins
# attack: type(x).mro() and __class__.__class__ from the program's own object to reach object and the real type
# profile: basic
# verdict: error rejected
# run-layer: guard
class Mine:
    pass


meta = Mine().__class__.__class__
Evil = meta("Evil", (), {"__getattr__": lambda s, n: open})
print(Mine.mro(), Evil().x("@SECRET_FILE@").read())
