def greet(name, greeting="Hello", punctuation="!"):
    return f"{greeting}, {name}{punctuation}"


print(greet("Sam"))
print(greet("Sam", "Hi"))
print(greet("Sam", punctuation="?"))
print(greet(greeting="Howdy", name="Tex"))


def append_to(item, target=None):
    if target is None:
        target = []
    target.append(item)
    return target


print(append_to(1), append_to(2))
