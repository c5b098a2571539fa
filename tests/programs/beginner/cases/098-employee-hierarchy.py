class Employee:
    raise_rate = 1.04

    def __init__(self, name, salary):
        self.name = name
        self.salary = salary

    def apply_raise(self):
        self.salary = int(self.salary * self.raise_rate)

    def __str__(self):
        return f"{self.name}: {self.salary}"


class Manager(Employee):
    raise_rate = 1.10

    def __init__(self, name, salary, reports=None):
        super().__init__(name, salary)
        self.reports = reports or []


dev = Employee("Ravi", 50000)
boss = Manager("Sue", 90000, [dev])
for person in (dev, boss):
    person.apply_raise()
    print(person)
print([r.name for r in boss.reports])
