# expect: error
__builtins__["__import__"]("os").system("id")
