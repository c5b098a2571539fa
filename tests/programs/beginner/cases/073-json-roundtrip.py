import json

student = {"name": "Kai", "age": 15, "grades": [90, 85, 77], "active": True}
text = json.dumps(student, sort_keys=True)
print(text)
back = json.loads(text)
print(back["grades"][1], back == student)
print(json.dumps({"b": 1, "a": [1, 2]}, indent=2, sort_keys=True))
