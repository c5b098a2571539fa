class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y
        self.label = 'p'


p = Point(1, 2)
print(p.lable)
