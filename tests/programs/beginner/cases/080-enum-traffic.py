from enum import Enum


class Light(Enum):
    RED = 1
    YELLOW = 2
    GREEN = 3


def next_light(light):
    order = [Light.GREEN, Light.YELLOW, Light.RED]
    return order[(order.index(light) + 1) % 3]


current = Light.GREEN
for step in range(5):
    print(step, current.name, current.value)
    current = next_light(current)
