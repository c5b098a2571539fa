name = input("What is your name? ")
print(f"Hello, {name}!")
greeting = "Nice to meet you"
print(greeting + ", " + name.upper() + ".")
print("Your name has", len(name), "letters.")
