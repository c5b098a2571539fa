school = {
    "math": {"teacher": "Ms. Lee", "students": ["Ann", "Bo", "Cy"]},
    "art": {"teacher": "Mr. Kim", "students": ["Di", "Ann"]},
    "music": {"teacher": "Mrs. Ortiz", "students": []},
}
for subject, info in school.items():
    print(f"{subject}: {info['teacher']}, {len(info['students'])} students")
classes_of_ann = [s for s, info in school.items() if "Ann" in info["students"]]
print("Ann takes:", classes_of_ann)
school["music"]["students"].append("Eve")
print(school["music"])
