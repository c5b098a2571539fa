# category: format
# attack: format(obj, spec) with a user __format__ that walks frames
# profile: basic
class X:
    def __format__(self, spec):
        return str(self.__class__.__base__.__subclasses__())
print(format(X(), ""))
