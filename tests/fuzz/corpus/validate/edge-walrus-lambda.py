f = lambda *a, **k: (y := a)
class C(object, metaclass=type): x: int = 1
