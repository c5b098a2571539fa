class Robot:
    def __init__(self, name):
        self.name = name
        self.battery = 80

    def beep(self):
        return "beep!"


r = Robot("R2")
for attr in ["name", "battery", "speed"]:
    print(attr, hasattr(r, attr), getattr(r, attr, "n/a"))
print(getattr(r, "beep")())
