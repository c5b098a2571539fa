# attack: read the __builtins__ name directly
print(__builtins__)
