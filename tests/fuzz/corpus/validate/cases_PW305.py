().__class__.__base__.__subclasses__()  # error x3
class A(B):
    def __init__(self):
        super().__init__()  # ok
        super().__str__()  # ok
        super().__getattribute__('x')  # error
print(f.__name__, f.__doc__)  # error x2: only the name __name__ is allowed
print(self.__class__.__name__)  # error x2
