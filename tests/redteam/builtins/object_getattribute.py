# category: builtins
# attack: object.__getattribute__ to read a dunder past the guard
# profile: basic
cls = object.__getattribute__((), "__class__")
print(cls.__subclasses__())
