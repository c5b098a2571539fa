# expect: error
import operator
print(operator.attrgetter("__class__.__base__")(1))
