# attack: bind a name ending in __roles__ (Zope security declarations)
view__roles__ = ("Anonymous",)
print(view__roles__)
