import math


class Shape:
    def area(self):
        return 0

    def describe(self):
        return f"{self.kind} with area {self.area():.2f}"


class Circle(Shape):
    kind = "circle"

    def __init__(self, r):
        self.r = r

    def area(self):
        return math.pi * self.r ** 2


class Rectangle(Shape):
    kind = "rectangle"

    def __init__(self, w, h):
        self.w = w
        self.h = h

    def area(self):
        return self.w * self.h


shapes = [Circle(1), Rectangle(3, 4), Circle(2.5)]
for s in shapes:
    print(s.describe())
print("Total area:", round(sum(s.area() for s in shapes), 3))
