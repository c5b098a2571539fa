# category: builtins
# attack: print(operator.attrgetter("__class__.__base__")(1))
# profile: basic
# verdict: error rejected
import operator
print(operator.attrgetter("__class__.__base__")(1))
