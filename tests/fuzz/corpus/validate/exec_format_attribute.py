# expect: error
print("{0.__class__.__base__.__subclasses__}".format(0))
