# SPDX-License-Identifier: Apache-2.0
# Private names on the program's own classes: self._x behind a property,
# cls._registry, a private method, a name-mangled __x, super()._x, and
# setattr/getattr/hasattr/delattr with such names.
class Shape:
    _registry = []

    def __init__(self, name):
        self._name = name
        self.__id = len(Shape._registry)
        type(self)._registry.append(self)

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, value):
        self._name = value.strip()

    def _describe(self):
        return f"shape #{self.__id}"

    @classmethod
    def count(cls):
        return len(cls._registry)


class Square(Shape):
    def __init__(self, side):
        super().__init__("square")
        self._side = side

    def _describe(self):
        return super()._describe() + f" with side {self._side}"


s = Square(3)
c = Shape("circle")
c.name = "  round  "
print(s.name, s._describe(), s._Shape__id)
print(c.name, c._describe(), Shape.count())
setattr(c, "_cache", {"area": 3.14})
print(getattr(c, "_cache"), hasattr(s, "_cache"))
delattr(c, "_cache")
del s._side
print(hasattr(c, "_cache"), hasattr(s, "_side"))
s._side = 4
s._side += 1
print(s._side)
