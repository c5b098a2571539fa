# attack: read a function's module globals to reach the real builtins
def f():
    pass


builtins_dict = f.__globals__["__builtins__"]
print(builtins_dict)
