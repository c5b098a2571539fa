# category: disclosure
# attack: error messages and variables leaking the guard's internals
# profile: basic
try:
    getattr(1, "__class__")
except AttributeError as e:
    print(e.args, e.__traceback__)
