# category: builtins
# attack: subclasses warnings
# profile: basic
# verdict: error rejected
w = [c for c in object.__subclasses__() if c.__name__ == "catch_warnings"][0]
print(w()._module.__builtins__["__import__"]("os"))
