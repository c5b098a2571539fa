# attack: the same globals walk through a lambda
g = (lambda: None).__globals__
b = g["__builtins__"]
ns = b if isinstance(b, dict) else b.__dict__
ns["exec"]("print('escaped')")
