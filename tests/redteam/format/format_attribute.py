# category: format
# attack: print("{0.__class__.__base__.__subclasses__}".format(0))
# profile: basic
# verdict: error rejected
print("{0.__class__.__base__.__subclasses__}".format(0))
