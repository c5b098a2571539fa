while True:
    text = input("Enter your age: ")
    try:
        age = int(text)
    except ValueError:
        print(f"{text!r} is not a number, try again")
        continue
    if age < 0 or age > 130:
        print("That age is out of range")
        continue
    break
print("In ten years you will be", age + 10)
