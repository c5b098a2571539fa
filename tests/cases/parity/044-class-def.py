# parity: ClassDef with bases is allowed (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
class Base:
    pass


class Child(Base):
    def hello(self):
        return "hi"
