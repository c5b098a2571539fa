# category: builtins
# attack: getattr with a name assembled from chr() codes
# profile: basic
u = chr(95) * 2
cls = getattr(1, u + "class" + u)
print(getattr(cls, u + "dict" + u))
g = getattr(getattr(cls, u + "init" + u), u + "globals" + u)
print(g)
