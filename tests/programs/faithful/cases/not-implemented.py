class Shape:
    def area(self):
        raise NotImplementedError


Shape().area()
