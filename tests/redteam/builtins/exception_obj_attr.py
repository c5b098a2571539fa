# category: builtins
# attack: AttributeError.obj and .name to fish objects out of the guard
# profile: basic
try:
    (1).__dict__
except AttributeError as e:
    print(e.obj, e.name)
    print(e.obj.__class__)
