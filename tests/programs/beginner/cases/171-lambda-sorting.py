students = [
    {"name": "Mia", "grade": 88, "age": 15},
    {"name": "Leo", "grade": 92, "age": 16},
    {"name": "Ava", "grade": 88, "age": 14},
]
for s in sorted(students, key=lambda s: s["name"]):
    print(s["name"])
for s in sorted(students, key=lambda s: (-s["grade"], s["age"])):
    print(s["name"], s["grade"], s["age"])
print(min(students, key=lambda s: s["age"])["name"])
