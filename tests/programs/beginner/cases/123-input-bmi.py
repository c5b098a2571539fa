weight = float(input("Weight in kg: "))
height_cm = float(input("Height in cm: "))
bmi = weight / (height_cm / 100) ** 2
print(f"BMI: {bmi:.1f}")
if bmi < 18.5:
    print("Underweight")
elif bmi < 25:
    print("Normal")
else:
    print("Overweight")
