# faithful: full
print("hi"
x = 1
