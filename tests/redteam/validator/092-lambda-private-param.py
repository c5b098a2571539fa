# attack: lambda parameter with a private name
f = lambda _secret: _secret
print(f(1))
