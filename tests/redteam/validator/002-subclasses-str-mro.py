# attack: reach object through the method resolution order of str
base = "".__class__.__mro__[-1]
for cls in base.__subclasses__():
    print(cls)
