# attack: str.format attribute traversal to the class, then a subclass walk on it
leak = "{0.__class__.__base__}".format(1)
print(leak, (1).__class__.__base__.__subclasses__())
