# Describe values by their type's name, and functions by their docstring.
def greet(name):
    """Say hello to someone."""
    return "Hello, " + name + "!"


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __repr__(self):
        return f"{self.__class__.__name__}({self.x}, {self.y})"


values = [42, 3.5, "text", [1, 2], {"a": 1}, Point(1, 2)]
for v in values:
    print(f"{v!r} is a {type(v).__name__}")
print(greet.__name__, "-", greet.__doc__)
print(Point.__qualname__, "defined in", Point.__module__)
print(greet("Ada"))
