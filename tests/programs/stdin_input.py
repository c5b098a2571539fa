# program: name = input() / print(f"Hello, {name}!")
# profile: basic
# verdict: ok
# timeout: 30
# stdin: Ada
# stdout: Hello, Ada!
name = input()
print(f"Hello, {name}!")
