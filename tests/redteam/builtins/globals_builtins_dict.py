# category: builtins
# attack: globals()['__builtins__'] and vars() to reach the real builtins
# profile: basic
b = globals()["__builtins__"]
print(b["open"]("@SECRET_FILE@").read())
