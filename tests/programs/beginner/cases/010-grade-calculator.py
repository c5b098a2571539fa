scores = {"Alice": 92, "Bob": 78, "Chen": 85, "Dana": 64, "Eli": 55}


def letter(score):
    if score >= 90:
        return "A"
    elif score >= 80:
        return "B"
    elif score >= 70:
        return "C"
    elif score >= 60:
        return "D"
    return "F"


for student, score in scores.items():
    print(f"{student:6} {score:3} {letter(score)}")
average = sum(scores.values()) / len(scores)
print(f"Class average: {average:.2f}")
