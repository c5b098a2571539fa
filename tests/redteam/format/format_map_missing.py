# category: format
# attack: format_map with a __missing__ mapping that returns a gadget
# profile: basic
class D(dict):
    def __missing__(self, key):
        return ()
print("{x.__class__.__base__}".format_map(D()))
