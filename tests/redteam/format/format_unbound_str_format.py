# category: format
# attack: str.format unbound called with a dunder field
# profile: basic
fmt = str.format
print(fmt("{0.__class__.__base__.__subclasses__}", 0))
