from dataclasses import dataclass, field


@dataclass(order=True)
class Student:
    grade: int
    name: str = field(compare=False)


students = [Student(88, "Lia"), Student(95, "Omar"), Student(72, "Pia"), Student(88, "Quinn")]
for s in sorted(students, reverse=True):
    print(s.name, s.grade)
print(max(students).name)
