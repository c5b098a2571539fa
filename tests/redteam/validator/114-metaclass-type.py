# attack: choose a metaclass to control class creation
class C(metaclass=type):
    pass
