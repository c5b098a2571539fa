# program: classes
# profile: basic
# verdict: ok
# timeout: 30
# stdout: Rex says woof 3
class Animal:
    def __init__(self, name):
        self.name = name
        self.count = 0

class Dog(Animal):
    def __init__(self, name):
        super().__init__(name)
        self.count += 3

    def __str__(self):
        return "{} says woof {}".format(self.name, self.count)

print(str(Dog("Rex")))
