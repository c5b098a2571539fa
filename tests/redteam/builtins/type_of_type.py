# category: builtins
# attack: type(type(0)) to recover the real type and its three-argument form
# profile: basic
real = type(type(0))
X = real("X", (), {"__getattr__": lambda s, n: open})
print(X().anything("@SECRET_FILE@").read())
