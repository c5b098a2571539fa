# faithful: full
age = 7
print("age: " + age)
