# expect: ok
# stdin: Ada
# stdout: Hello, Ada!
name = input()
print(f"Hello, {name}!")
