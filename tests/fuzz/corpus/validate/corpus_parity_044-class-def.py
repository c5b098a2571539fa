# parity: ClassDef with bases is allowed (RESTRICTEDPYTHON.md §2)
# restricted: accept
# default: accept
class Base:
    pass


class Child(Base):
    def hello(self):
        return "hi"
