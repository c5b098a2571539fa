# category: format
# attack: map(str.format, ...) applying the unbound format
# profile: basic
print(list(map(str.format, ["{0.__class__.__base__.__subclasses__}"], [0])))
