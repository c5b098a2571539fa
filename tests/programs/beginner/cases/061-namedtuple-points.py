from collections import namedtuple

City = namedtuple("City", ["name", "country", "population"])
cities = [
    City("Tokyo", "Japan", 37.4),
    City("Delhi", "India", 31.0),
    City("Lagos", "Nigeria", 15.4),
]
for c in sorted(cities, key=lambda c: c.population):
    print(f"{c.name} ({c.country}): {c.population}M")
print(cities[0].name, cities[0][2])
