# faithful: full
x = 1
if x is 1:
    print("one")
print(undefined)
