# category: format
# attack: a str subclass whose format() is replaced after the guard's check
# profile: basic
class S(str):
    def __getitem__(self, i):
        return "{0.__class__}"
s = S("{0}")
print(s.format(()))
print(str.format(s, ()))
