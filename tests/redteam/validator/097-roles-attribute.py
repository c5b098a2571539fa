# attack: write a __roles__ attribute on an object
class C:
    pass


C.method__roles__ = None
