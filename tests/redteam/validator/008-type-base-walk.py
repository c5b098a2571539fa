# attack: call type() on a value and then climb to object via __base__
root = type(0.5).__base__
print(root.__subclasses__())
