class Animal:
    def __init__(self, name, sound):
        self.name = name
        self.sound = sound

    def speak(self):
        return f"{self.name} says {self.sound}"


class Dog(Animal):
    def __init__(self, name):
        super().__init__(name, "woof")

    def fetch(self):
        return f"{self.name} fetches the ball"


class Cat(Animal):
    def __init__(self, name):
        super().__init__(name, "meow")


pets = [Dog("Rex"), Cat("Tom"), Dog("Fido")]
for pet in pets:
    print(pet.speak())
print(pets[0].fetch())
print(isinstance(pets[1], Animal), isinstance(pets[1], Dog))
