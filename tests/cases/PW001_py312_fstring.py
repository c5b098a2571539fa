# Python 3.12 f-string with a backslash inside its braces.
names = ["a", "b"]
print(f"{'\n'.join(names)}")
