# category: builtins
# attack: type(name, bases, dict) to build a class with a hostile __getattribute__
# profile: basic
T = type("T", (object,), {"x": 1})
print(T)
