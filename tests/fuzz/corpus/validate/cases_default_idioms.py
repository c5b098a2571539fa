class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __str__(self):
        return f"Point({self.x}, {self.y})"

    def __eq__(self, other):
        return self.x == other.x and self.y == other.y


class Point3(Point):
    def __init__(self, x, y, z):
        super().__init__(x, y)
        self.z: int = z

    def move(self, dz):
        self.z += dz


def main():
    count = 0

    def bump():
        nonlocal count
        count += 1

    bump()
    tally = {"a": 0}
    tally["a"] += 1
    for _ in range(2):
        bump()
    match count:
        case 3:
            print("three", tally)
        case _:
            print(Point3(1, 2, 3))


if __name__ == "__main__":
    main()
