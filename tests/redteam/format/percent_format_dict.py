# category: format
# attack: old-style %-format with a mapping of dunders
# profile: basic
class M(dict):
    def __missing__(self, k):
        return k
print("%(__class__)s" % M())
print("%s" % ((),).__class__)
