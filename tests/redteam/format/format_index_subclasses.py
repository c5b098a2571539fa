# category: format
# attack: format field indexing through __mro__
# profile: basic
print("{0.__class__.__mro__[1].__subclasses__}".format(()))
