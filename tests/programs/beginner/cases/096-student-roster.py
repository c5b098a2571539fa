class Student:
    def __init__(self, name, grades):
        self.name = name
        self.grades = grades

    def average(self):
        return sum(self.grades) / len(self.grades)

    def __lt__(self, other):
        return self.average() < other.average()

    def __repr__(self):
        return f"Student({self.name!r}, avg={self.average():.1f})"


roster = [Student("Zoe", [90, 80]), Student("Yan", [70, 75, 80]), Student("Xia", [95, 99])]
print(sorted(roster))
print("Top:", max(roster).name)
