n = int(input("Which table? "))
upto = int(input("Up to? "))
print(f"Table of {n}")
for i in range(1, upto + 1):
    print(f"{i:2} x {n} = {i * n:3}")
print("Done")
