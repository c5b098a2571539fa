people = [("Lee", 30, "Seoul"), ("Ana", 25, "Lima"), ("Max", 30, "Oslo"), ("Ida", 22, "Rome")]
print(sorted(people))
print(sorted(people, key=lambda p: p[1]))
print(sorted(people, key=lambda p: (-p[1], p[0])))
youngest = min(people, key=lambda p: p[1])
print("Youngest:", youngest[0], "from", youngest[2])
