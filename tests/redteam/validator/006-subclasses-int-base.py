# attack: go from an int literal's class to object through __base__
obj = (1).__class__.__base__
print(obj.__subclasses__()[:3])
