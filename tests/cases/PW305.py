().__class__.__base__.__subclasses__()  # error x2: __class__ is type(())
class A(B):
    def __init__(self):
        super().__init__()  # ok
        super().__str__()  # ok
        super().__getattribute__('x')  # error
print(f.__name__, f.__doc__, f.__qualname__, f.__module__)  # ok: read only
print(self.__class__.__name__, type(d).__name__, np.__version__)  # ok
f.__name__ = 'g'  # error: naming dunders are read, never set
obj.__class__ = A  # error
self._count = self._count + 1  # ok: the guard allows it on own objects
self.__balance = 0  # ok: a private name, mangled as python3 does
del cls._registry  # ok
x.__class__.__mro__, x.__class__.__bases__, f.__globals__  # error x3
f.__code__, x.__dict__, x.__builtins__  # error x3
x.__  # error: no private name
x._y__roles__  # error
