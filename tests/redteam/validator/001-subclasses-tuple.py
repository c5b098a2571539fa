# attack: walk from a tuple literal to object and list every loaded class
classes = ().__class__.__bases__[0].__subclasses__()
print(len(classes))
