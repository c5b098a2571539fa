# attack: define a class with a private name
class _Hidden:
    pass


print(_Hidden)
