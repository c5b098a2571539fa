# category: builtins
# attack: operator.attrgetter with a dotted dunder path
# profile: basic
import operator
g = operator.attrgetter("__class__.__base__.__subclasses__")
print(g(()))
