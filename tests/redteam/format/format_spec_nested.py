# category: format
# attack: a forbidden field hidden in a nested format spec
# profile: basic
print("{0:{1.__class__.__base__}}".format(1, ()))
