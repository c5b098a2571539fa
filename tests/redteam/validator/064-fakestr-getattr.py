# attack: a str subclass that lies in startswith to pass a getattr guard (#282)
class FakeStr(str):
    def startswith(self, prefix):
        return False


cls = getattr(1, FakeStr("__class__"))
print(cls.__subclasses__())
