# attack: a custom metaclass that runs code at class creation
class Meta(type):
    pass


class C(object, metaclass=Meta):
    x = 1
